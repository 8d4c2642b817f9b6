import { WorkQueue, scaledValue, selectorMatches } from './runtime.js';

const conflict = () => Object.assign(new Error('the object has been modified'), { code: 409 });
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('simulator work queue', () => {
  it('deduplicates keys queued before a drain', async () => {
    const seen: string[] = [];
    const q = new WorkQueue(
      (k) => seen.push(k),
      () => undefined,
    );
    q.add('a');
    q.add('a');
    q.add('b');
    await q.idle();
    expect(seen).toEqual(['a', 'b']);
    q.stop();
  });

  it('retries a conflict from fresh state and logs failures with the key', async () => {
    const logs: Array<Record<string, unknown>> = [];
    let calls = 0;
    const q = new WorkQueue(
      () => {
        calls++;
        if (calls === 1) throw conflict();
        if (calls === 2) throw new Error('boom');
      },
      (e) => logs.push(e),
    );
    q.add('deployment/default/web');
    await tick(100);
    expect(calls).toBe(3);
    expect(logs.map((l) => [l.key, l.code, l.level])).toEqual([
      ['deployment/default/web', 409, 'debug'],
      ['deployment/default/web', undefined, 'error'],
    ]);
    q.stop();
  });

  it('keeps the earliest delayed wake-up and cancels everything on stop', async () => {
    const seen: string[] = [];
    const q = new WorkQueue(
      (k) => seen.push(k),
      () => undefined,
    );
    q.addAfter('x', 30);
    q.addAfter('x', 1000);
    await tick(80);
    expect(seen).toEqual(['x']);
    q.addAfter('y', 30);
    q.stop();
    q.add('z');
    await tick(80);
    expect(seen).toEqual(['x']);
  });
});

describe('helpers', () => {
  it('scales int-or-percent values like intstr', () => {
    expect(scaledValue('25%', 2, true)).toBe(1);
    expect(scaledValue('25%', 2, false)).toBe(0);
    expect(scaledValue(3, 10, false)).toBe(3);
  });

  it('matches label selectors with expressions', () => {
    const sel = {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }],
    };
    expect(selectorMatches(sel, { app: 'web', tier: 'a' })).toBe(true);
    expect(selectorMatches(sel, { app: 'web' })).toBe(false);
    expect(selectorMatches(undefined, { app: 'web' })).toBe(false);
  });
});
