/**
 * Time, injected. Everything that waits or measures (work queues, backoff,
 * the reflector, leader election, the workload simulator, render time limits)
 * takes a `Clock`, so production runs on the wall clock and tests advance a
 * `FakeClock` explicitly and assert order and count, never elapsed time.
 * The idea and the surface follow k8s.io/utils/clock.
 */

/** An opaque handle returned by `Clock.setTimeout`. */
export type TimerHandle = { readonly __timer?: never } | object;

export interface Clock {
  /** Milliseconds since the Unix epoch (as `Date.now()`). */
  now(): number;
  /** Calls `fn` once, `ms` from now (0 or less: as soon as possible, never synchronously). */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer; a handle that already fired or was cleared is ignored. */
  clearTimeout(handle: TimerHandle | undefined): void;
  /** Resolves after `ms`, or early (without rejecting) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** `sleep` written once over any clock's `setTimeout`. */
export function sleepOn(
  clock: Pick<Clock, 'setTimeout' | 'clearTimeout'>,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      resolve();
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wall clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, Math.max(0, ms)),
  clearTimeout: (handle) => {
    if (handle !== undefined) clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
  sleep: (ms, signal) => sleepOn(realClock, ms, signal),
};
