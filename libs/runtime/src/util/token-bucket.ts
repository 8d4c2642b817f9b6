import { realClock, type Clock } from '#kube-core';

/**
 * A token bucket (golang.org/x/time/rate semantics): `burst` tokens, refilled
 * at `qps` per second. `reserve()` always takes a token, possibly one that only
 * exists in the future, and returns how long the caller must wait for it, so
 * concurrent callers queue up fairly instead of all retrying at once.
 */
export class TokenBucket {
  /** Tokens available at `updatedAt`; negative when future tokens are already promised. Never above `burst`. */
  private tokens: number;
  private updatedAt: number;
  private readonly now: () => number;

  constructor(
    readonly qps: number,
    readonly burst: number,
    /** Where time comes from: a Clock, or a function returning milliseconds. */
    clock: Pick<Clock, 'now'> | (() => number) = realClock,
  ) {
    this.now = typeof clock === 'function' ? clock : () => clock.now();
    if (!(qps > 0) || !(burst >= 1))
      throw new Error(`token bucket needs qps > 0 and burst >= 1, got qps=${qps} burst=${burst}`);
    this.tokens = burst;
    this.updatedAt = this.now();
  }

  /** Takes one token and returns the delay in ms until it is really available (0 = now). */
  reserve(): number {
    this.refill();
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  /** Takes a token only if one is available right now. */
  tryTake(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private refill(): void {
    const t = this.now();
    // A clock that stepped back (wall-clock adjustment) refills nothing rather than taking tokens away.
    const elapsed = Math.max(0, t - this.updatedAt);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed / 1000) * this.qps);
    this.updatedAt = Math.max(t, this.updatedAt);
  }
}
