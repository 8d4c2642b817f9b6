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
});
