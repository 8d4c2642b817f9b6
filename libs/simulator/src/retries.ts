import type { Logger } from '#kube-server';
import { errorMessage, statusCode } from './sim.js';

/**
 * When a failed simulated reconcile runs again. A conflict means someone
 * wrote in between: retried at once from fresh state, a few times; anything
 * else, and a conflict that keeps coming, backs off 10 ms × 2^failures (at
 * most 30 s). Counted per queue key; a success forgets the key's failures.
 */
export class RetryPolicy {
  private readonly failures = new Map<string, number>();

  constructor(private readonly log: Logger) {}

  /** The delay before `key` runs again (0: at once), logged with the key and the error. */
  failed(key: string, err: unknown): number {
    const attempt = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, attempt);
    const code = statusCode(err);
    const delay = code === 409 && attempt <= 3 ? 0 : Math.min(30_000, 10 * 2 ** Math.min(attempt, 12));
    this.log({
      level: code === 409 || code === 404 ? 'debug' : 'error',
      msg: 'simulated controller sync failed, will retry',
      key,
      attempt,
      retryInMs: delay,
      code,
      error: err instanceof Error && code === undefined ? err.stack : errorMessage(err),
    });
    return delay;
  }

  succeeded(key: string): void {
    this.failures.delete(key);
  }

  clear(): void {
    this.failures.clear();
  }
}
