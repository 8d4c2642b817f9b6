import { DelayingQueue } from './delaying-queue.js';
import type { QueueOptions } from './queue.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.js';

export interface RateLimitingQueueOptions<T> extends QueueOptions {
  rateLimiter?: RateLimiter<T>;
}

/**
 * A delaying queue whose retries are paced by a rate limiter
 * (client-go rate_limiting_queue.go).
 *
 * Retry contract: after a failure call `addRateLimited(item)` (the delay grows
 * per item); after a success, or when giving up, call `forget(item)` so the
 * next failure starts from the base delay again. Either way call `done(item)`.
 */
export class RateLimitingQueue<T> extends DelayingQueue<T> {
  readonly rateLimiter: RateLimiter<T>;

  constructor(options: RateLimitingQueueOptions<T> = {}) {
    super(options);
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<T>(this.clock);
  }

  addRateLimited(item: T, priority?: number): void {
    if (this.isShuttingDown()) return;
    this.recordRetry();
    this.addAfter(item, this.rateLimiter.when(item), priority);
  }

  forget(item: T): void {
    this.rateLimiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.rateLimiter.numRequeues(item);
  }
}
