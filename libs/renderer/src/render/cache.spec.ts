import { FakeClock } from '#kube-core';
import { RenderCache } from './cache.js';

const result = (n: number) => ({
  outputs: {},
  patchKeys: {},
  output: { apiVersion: 'v1', kind: 'ConfigMap', data: { n } },
});

describe('RenderCache idle expiry', () => {
  it('drops entries unused for idleMs and keeps those used since', async () => {
    const clock = new FakeClock();
    const cache = new RenderCache({ idleMs: 60_000, clock });
    cache.set('a', result(1));
    cache.set('b', result(2));
    await clock.advance(50_000);
    expect(cache.get('a')).toBeDefined(); // used: its idle time starts again
    await clock.advance(10_000); // b idle 60 s
    expect(cache.size).toBe(1);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.expired).toBe(1);
    await clock.advance(90_000); // a's last use was 60 s ago by 120 s, swept by 1.5 × idleMs
    expect(cache.size).toBe(0);
    expect(cache.expired).toBe(2);
  });

  it('keeps no timer while empty, and one at most while holding entries', async () => {
    const clock = new FakeClock();
    const cache = new RenderCache({ idleMs: 1000, clock });
    expect(clock.pending).toBe(0);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, result(i));
    expect(clock.pending).toBe(1);
    await clock.advance(1000);
    expect(cache.size).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('an entry set again is as recent as a hit', async () => {
    const clock = new FakeClock();
    const cache = new RenderCache({ maxEntries: 2, idleMs: 1000, clock });
    cache.set('a', result(1));
    cache.set('b', result(2));
    cache.set('a', result(3));
    cache.set('c', result(4)); // evicts b, the least recently used
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.output).toEqual(result(3).output);
  });

  it('close() stops the sweep and drops everything', async () => {
    const clock = new FakeClock();
    const cache = new RenderCache({ idleMs: 1000, clock });
    cache.set('a', result(1));
    cache.close();
    expect(clock.pending).toBe(0);
    expect(cache.size).toBe(0);
  });

  it('without idleMs keeps entries however long they sit (no timer)', async () => {
    const clock = new FakeClock();
    const cache = new RenderCache({ clock });
    cache.set('a', result(1));
    expect(clock.pending).toBe(0);
    await clock.advance(24 * 3600_000);
    expect(cache.get('a')).toBeDefined();
  });

  it('rejects an idle time that is not a positive number', () => {
    expect(() => new RenderCache({ idleMs: 0 })).toThrow(/idleMs must be a positive number/);
  });
});
