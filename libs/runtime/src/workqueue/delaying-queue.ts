import type { TimerHandle } from '#kube-core';
import { DEFAULT_PRIORITY } from './priority-fifo.js';
import { WorkQueue, type QueueOptions } from './queue.js';

/**
 * A work queue that can add an item later (client-go delaying_queue.go).
 * An item waiting for several delays is added once, at the earliest time,
 * at the highest priority asked for.
 * Delayed items not yet due are dropped at shutdown.
 */
export class DelayingQueue<T> extends WorkQueue<T> {
  /** Items waiting to be added, with their due time and timer; at most one timer per item. */
  private readonly waiting = new Map<T, { dueAt: number; timer: TimerHandle; priority: number }>();

  constructor(options: QueueOptions = {}) {
    super(options);
  }

  /** Adds `item` at `priority` after `delayMs` (now if ≤ 0). An earlier pending due time wins. */
  addAfter(item: T, delayMs: number, priority = DEFAULT_PRIORITY): void {
    if (this.isShuttingDown()) return;
    if (!(delayMs > 0)) {
      this.add(item, priority);
      return;
    }
    const dueAt = this.clock.now() + delayMs;
    const pending = this.waiting.get(item);
    if (pending) {
      pending.priority = Math.max(pending.priority, priority);
      if (pending.dueAt <= dueAt) return;
      this.clock.clearTimeout(pending.timer);
      priority = pending.priority;
    }
    const timer = this.clock.setTimeout(() => {
      const due = this.waiting.get(item);
      this.waiting.delete(item);
      this.add(item, due?.priority ?? priority);
    }, delayMs);
    this.waiting.set(item, { dueAt, timer, priority });
  }

  /** Items waiting for their delay; for tests and diagnostics. */
  waitingCount(): number {
    return this.waiting.size;
  }

  protected override onShutDown(): void {
    for (const { timer } of this.waiting.values()) this.clock.clearTimeout(timer);
    this.waiting.clear();
  }
}
