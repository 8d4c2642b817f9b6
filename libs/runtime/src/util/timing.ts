import { realClock, type Clock } from '#kube-core';

/**
 * Resolves after `ms` on `clock` (the wall clock by default), or early
 * (without rejecting) when `signal` aborts. A delay of 0 or less resolves
 * at once, without waiting for a timer.
 */
export function sleep(ms: number, signal?: AbortSignal, clock: Clock = realClock): Promise<void> {
  if (signal?.aborted || ms <= 0) return Promise.resolve();
  return clock.sleep(ms, signal);
}

/** `base` scaled by a random factor in [1, 1 + factor): client-go's wait.Jitter. */
export function jitter(base: number, factor: number, random: () => number = Math.random): number {
  return base * (1 + random() * factor);
}

/**
 * Exponential backoff with jitter that resets after a quiet period, like
 * client-go's exponential backoff manager used by the Reflector
 * (800 ms initial, ×2, capped at 30 s, reset after 2 min without failure).
 */
export class Backoff {
  private current = 0;
  private lastFailure = 0;

  constructor(
    private readonly initialMs = 800,
    private readonly maxMs = 30_000,
    private readonly resetAfterMs = 120_000,
    private readonly jitterFactor = 1.0,
    private readonly clock: Pick<Clock, 'now'> = realClock,
  ) {}

  /** The delay to wait before the next attempt; every call counts as one more failure. */
  next(now = this.clock.now()): number {
    if (this.current === 0 || now - this.lastFailure > this.resetAfterMs) this.current = this.initialMs;
    else this.current = Math.min(this.current * 2, this.maxMs);
    this.lastFailure = now;
    return Math.min(jitter(this.current, this.jitterFactor), this.maxMs * (1 + this.jitterFactor));
  }

  reset(): void {
    this.current = 0;
  }
}
