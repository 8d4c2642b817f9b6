import { FakeClock } from '../clock/fake-clock.js';
import { IdleCache } from './idle-cache.js';

describe('IdleCache', () => {
  it('drops entries unused for idleMs, keeps those used since, and keeps no timer while empty', async () => {
    const clock = new FakeClock();
    const cache = new IdleCache<string, number>({ idleMs: 1000, maxEntries: 10, clock });
    expect(clock.pending).toBe(0);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(clock.pending).toBe(1);
    await clock.advance(600);
    expect(cache.get('a')).toBe(1);
    await clock.advance(400); // b idle 1 s
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(1);
    await clock.advance(600); // a idle 1 s by 1.6 s; swept by 1.5 × idleMs after its use
    expect(cache.size).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('evicts the least recently used past maxEntries', () => {
    const cache = new IdleCache<string, number>({ idleMs: 1000, maxEntries: 2, clock: new FakeClock() });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
  });
});
