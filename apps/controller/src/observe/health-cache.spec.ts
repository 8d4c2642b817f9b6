import { RenderError } from '#renderer';
import { cachedHealthEngine } from './health-cache.js';

describe('cachedHealthEngine', () => {
  it('evaluates a source once, keeps failures out, and forgets the least recently used', async () => {
    const calls: string[] = [];
    const engine = cachedHealthEngine(
      {
        policyContext: async (_source, context) => context,
        evaluateSource: async (_label, source) => {
          calls.push(source);
          if (source === 'bad') throw new Error('timeout');
          return { isHealth: source.length > 1 };
        },
      },
      2,
    );
    expect(await engine.evaluateSource('p', 'aa')).toEqual({ isHealth: true });
    await engine.evaluateSource('p', 'aa');
    await expect(engine.evaluateSource('p', 'bad')).rejects.toThrow('timeout');
    await expect(engine.evaluateSource('p', 'bad')).rejects.toThrow('timeout');
    await engine.evaluateSource('p', 'b');
    await engine.evaluateSource('p', 'c'); // evicts 'aa'
    await engine.evaluateSource('p', 'aa');
    expect(calls).toEqual(['aa', 'bad', 'bad', 'b', 'c', 'aa']);
  });

  it('keeps a policy that passed its CPU-time limit, answering its failure without evaluating it again', async () => {
    const calls: { source: string; tenant?: string }[] = [];
    const limit = new RenderError('TraitDefinition "bomb": cpu time limit 5s exceeded', {}, 'timeout', 'cpu');
    const engine = cachedHealthEngine({
      policyContext: async (_source, context) => context,
      evaluateSource: async (_label, source, scope) => {
        calls.push({ source, tenant: scope?.tenant });
        throw limit;
      },
    });
    await expect(engine.evaluateSource('p', 'spin', { tenant: 'team-a' })).rejects.toBe(limit);
    await expect(engine.evaluateSource('p', 'spin', { tenant: 'team-a' })).rejects.toBe(limit);
    expect(calls).toEqual([{ source: 'spin', tenant: 'team-a' }]); // once, in its namespace's turn
  });

  it('evaluates a request asked again while it runs once, and shares its failure', async () => {
    const calls: string[] = [];
    const answers: { resolve(): void; reject(e: Error): void }[] = [];
    const engine = cachedHealthEngine({
      policyContext: async (_source, context) => context,
      evaluateSource: (_label, source) => {
        calls.push(source);
        return new Promise((resolve, reject) =>
          answers.push({ resolve: () => resolve({ isHealth: true }), reject }),
        );
      },
    });
    const first = engine.evaluateSource('p', 'aa');
    const second = engine.evaluateSource('p', 'aa');
    const other = engine.evaluateSource('p', 'bb');
    expect(calls).toEqual(['aa', 'bb']);
    answers[0].resolve();
    answers[1].reject(new Error('timeout'));
    expect(await first).toEqual({ isHealth: true });
    expect(await second).toEqual({ isHealth: true });
    await expect(other).rejects.toThrow('timeout');
    // A failure is not kept: asked again, it is evaluated again.
    const again = engine.evaluateSource('p', 'bb');
    expect(calls).toEqual(['aa', 'bb', 'bb']);
    answers[2].resolve();
    expect(await again).toEqual({ isHealth: true });
  });
});
