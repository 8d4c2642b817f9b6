import type { FakeClock } from '#kube-core';

/** One turn of the event loop: queued promise callbacks run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Moves `clock` forward one timer at a time until `check()` holds, and stops
 * there (so `clock.now()` is the fake instant it first held). Fails when it
 * would take more than `limitMs` of fake time, or when nothing is scheduled
 * and nothing changes: a wait that cannot end. Never looks at the wall clock,
 * so it passes or fails the same way on a fast or a busy machine.
 */
export async function advanceUntil(
  clock: FakeClock,
  check: () => boolean,
  what: string,
  limitMs = 600_000,
): Promise<void> {
  const start = clock.now();
  for (;;) {
    await settle();
    if (check()) return;
    let delay = clock.nextDelay();
    // Async work (promise chains) may be about to schedule its next timer: give it a few turns.
    for (let turn = 0; delay === undefined && turn < 20; turn++) {
      await settle();
      if (check()) return;
      delay = clock.nextDelay();
    }
    if (delay === undefined) throw new Error(`waiting for ${what}: nothing is scheduled on the clock`);
    if (clock.now() + delay - start > limitMs)
      throw new Error(`waiting for ${what}: not reached within ${limitMs} ms of fake time`);
    await clock.advance(delay);
  }
}
