import type { Clock } from '#kube-core';
import { TokenBucket } from '../util/token-bucket.js';

/** How long an item must wait before its next retry (client-go default_rate_limiters.go). */
export interface RateLimiter<T> {
  /** The delay in ms before `item` may be retried; each call counts as one more failure. */
  when(item: T): number;
  /** Clears the failure history of `item` (after success or when giving up). */
  forget(item: T): void;
  numRequeues(item: T): number;
}

/** baseMs × 2^failures, capped at maxMs, per item. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();
  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1_000_000,
  ) {}
  when(item: T): number {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    const delay = this.baseMs * 2 ** n;
    return Number.isFinite(delay) ? Math.min(delay, this.maxMs) : this.maxMs;
  }
  forget(item: T): void {
    this.failures.delete(item);
  }
  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** One token bucket for all items: bounds the overall retry rate. */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private readonly bucket: TokenBucket;
  constructor(qps = 10, burst = 100, clock?: Pick<Clock, 'now'> | (() => number)) {
    this.bucket = new TokenBucket(qps, burst, clock);
  }
  when(_item: T): number {
    return this.bucket.reserve();
  }
  forget(_item: T): void {}
  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest delay any of the limiters asks for. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];
  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }
  when(item: T): number {
    return Math.max(0, ...this.limiters.map((l) => l.when(item)));
  }
  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }
  numRequeues(item: T): number {
    return Math.max(0, ...this.limiters.map((l) => l.numRequeues(item)));
  }
}

/** client-go's DefaultControllerRateLimiter: per item 5 ms → 1000 s, overall 10 qps / burst 100. */
export function defaultControllerRateLimiter<T>(clock?: Pick<Clock, 'now'>): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(5, 1_000_000),
    new BucketRateLimiter<T>(10, 100, clock),
  );
}
