import { FakeClock } from './fake-clock.js';

describe('FakeClock', () => {
  it('fires timers in due order, with now() at each due time, and only when advanced', async () => {
    const clock = new FakeClock(1000);
    const fired: Array<[string, number]> = [];
    clock.setTimeout(() => fired.push(['b', clock.now()]), 20);
    clock.setTimeout(() => fired.push(['a', clock.now()]), 10);
    clock.setTimeout(() => fired.push(['c', clock.now()]), 20);
    expect(clock.pending).toBe(3);
    await clock.advance(9);
    expect(fired).toEqual([]);
    await clock.advance(11);
    expect(fired).toEqual([
      ['a', 1010],
      ['b', 1020],
      ['c', 1020],
    ]);
    expect(clock.now()).toBe(1020);
    expect(clock.pending).toBe(0);
  });

  it('fires timers scheduled while advancing when they fall due within the same advance', async () => {
    const clock = new FakeClock(0);
    const fired: number[] = [];
    const tick = (): void => {
      fired.push(clock.now());
      clock.setTimeout(tick, 10);
    };
    clock.setTimeout(tick, 10);
    await clock.advance(35);
    expect(fired).toEqual([10, 20, 30]);
    expect(clock.nextDelay()).toBe(5);
  });

  it('lets async code resumed by a timer run before the next timer fires', async () => {
    const clock = new FakeClock(0);
    const order: string[] = [];
    void (async () => {
      await clock.sleep(10);
      order.push('slept');
      await Promise.resolve();
      order.push('continued');
      clock.setTimeout(() => order.push('rescheduled'), 5);
    })();
    clock.setTimeout(() => order.push('other at 12'), 12);
    await clock.advance(20);
    expect(order).toEqual(['slept', 'continued', 'other at 12', 'rescheduled']);
  });

  it('clearTimeout cancels, and sleep ends early on abort', async () => {
    const clock = new FakeClock(0);
    const fired: string[] = [];
    const handle = clock.setTimeout(() => fired.push('x'), 5);
    clock.clearTimeout(handle);
    const abort = new AbortController();
    const slept = clock.sleep(1000, abort.signal).then(() => fired.push('woke'));
    abort.abort();
    await slept;
    expect(clock.pending).toBe(0);
    await clock.advance(2000);
    expect(fired).toEqual(['woke']);
  });

  it('waitForTimers resolves once the awaited number of timers is pending', async () => {
    const clock = new FakeClock(0);
    let resolved = false;
    const waiting = clock.waitForTimers(2).then(() => (resolved = true));
    clock.setTimeout(() => undefined, 1);
    await Promise.resolve();
    expect(resolved).toBe(false);
    clock.setTimeout(() => undefined, 1);
    await waiting;
    expect(resolved).toBe(true);
  });
});
