import type { Clock } from '#kube-core';
import type { Store } from '../store/store.js';

/**
 * How long a watch that asks for its initial events at a resourceVersion the store has not
 * reached waits for it: kube-apiserver's watch cache gives up after 3 s (blockTimeout) with
 * "Too large resource version".
 */
export const FRESHNESS_WAIT_MS = 3_000;

/**
 * Resolves true once the store has committed `rv`, false when `FRESHNESS_WAIT_MS` pass on
 * `clock` first or `signal` aborts (the client went away).
 */
export function untilCommitted(
  store: Store,
  rv: number,
  clock: Clock,
  signal: AbortSignal,
): Promise<boolean> {
  if (store.committedRv() >= rv) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (fresh: boolean) => {
      unsubscribe();
      clock.clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
      resolve(fresh);
    };
    const aborted = () => done(false);
    const unsubscribe = store.subscribe(() => {
      if (store.committedRv() >= rv) done(true);
    });
    const timer = clock.setTimeout(() => done(false), FRESHNESS_WAIT_MS);
    signal.addEventListener('abort', aborted, { once: true });
  });
}
