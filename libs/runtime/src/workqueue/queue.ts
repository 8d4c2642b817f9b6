import type { Registry } from 'prom-client';
import { realClock, type Clock } from '#kube-core';
import { onScrape, queueMetrics, type QueueMetrics } from './metrics.js';
import { DEFAULT_PRIORITY, PriorityFifo } from './priority-fifo.js';

export interface QueueOptions {
  /** Metric label; metrics are recorded only when both name and registry are given. */
  name?: string;
  registry?: Registry;
  /** Times queue latency and work duration, and (delaying queues) schedules delayed adds. Default: the wall clock. */
  clock?: Clock;
}

/**
 * The basic work queue (client-go util/workqueue queue.go).
 *
 * Contract for workers: `get()` hands out an item and marks it processing;
 * the worker MUST call `done(item)` when it has finished with it, whatever
 * the outcome. Until then the same item is never handed to another worker;
 * if it was re-added meanwhile it is queued again by `done`, so the change
 * that arrived during processing is never lost.
 *
 * Items are compared with `===` (SameValueZero): use strings or numbers.
 *
 * Priorities (controller-runtime's priority queue): an add may name one
 * (default 0, higher first, e.g. LOW_PRIORITY for resyncs); FIFO within a
 * priority. An item added again while waiting keeps the higher of the two.
 */
export class WorkQueue<T> {
  /** Items waiting, by priority; every one is in `dirty`; none is in `processing`. */
  private readonly items = new PriorityFifo<T>();
  /** Items that need processing (queued ones, plus processing ones re-added since they were handed out), with the priority wanted. */
  private readonly dirty = new Map<T, number>();
  /** Items handed out and not yet `done`, with the time processing started. */
  private readonly processing = new Map<T, number>();
  /** The priority each item being processed was handed out at. */
  private readonly handedAt = new Map<T, number>();
  /** When each queued item was first added (for queue latency). */
  private readonly queuedSince = new Map<T, number>();
  /** Pending `get()` callers; non-empty only while the queue is empty and not shutting down. */
  private waiters: Array<(item: T | undefined) => void> = [];
  private drainWaiters: Array<() => void> = [];
  private shuttingDown = false;
  protected readonly clock: Clock;
  private readonly metrics?: QueueMetrics;
  private readonly name: string;
  private unregisterScrape?: () => void;

  constructor(options: QueueOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.name = options.name ?? '';
    if (options.name && options.registry) {
      this.metrics = queueMetrics(options.registry);
      this.unregisterScrape = onScrape(options.registry, () => this.updateRunningGauges());
    }
  }

  /**
   * Marks the item as needing processing, at `priority`. If it is already
   * waiting, only raises its priority (never lowers it). No-op once shutting down.
   */
  add(item: T, priority = DEFAULT_PRIORITY): void {
    if (this.shuttingDown) return;
    const wanted = this.dirty.get(item);
    if (wanted !== undefined) {
      if (priority <= wanted) return;
      this.dirty.set(item, priority);
      if (this.items.has(item)) this.items.push(item, priority);
      return;
    }
    this.metrics?.adds.inc({ name: this.name });
    this.dirty.set(item, priority);
    if (this.processing.has(item)) return; // `done` will queue it again
    this.enqueue(item, priority);
  }

  /** Number of items waiting (not counting the ones being processed). */
  len(): number {
    return this.items.length;
  }

  /** The priority an item being processed was handed out at (or a waiting item's); undefined for others. */
  priorityOf(item: T): number | undefined {
    return this.handedAt.get(item) ?? this.items.priorityOf(item);
  }

  /**
   * The next item, waiting for one if needed. Resolves `undefined` once the
   * queue is shutting down and empty: the worker should then exit.
   */
  get(): Promise<T | undefined> {
    if (this.len() > 0) return Promise.resolve(this.take());
    if (this.shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Ends processing of `item`; if it was re-added meanwhile it is queued again. */
  done(item: T): void {
    const started = this.processing.get(item);
    if (started === undefined) return;
    this.processing.delete(item);
    this.handedAt.delete(item);
    this.metrics?.workDuration.observe({ name: this.name }, elapsedSeconds(started, this.clock.now()));
    const wanted = this.dirty.get(item);
    if (wanted !== undefined) this.enqueue(item, wanted);
    if (this.processing.size === 0) this.releaseDrainWaiters();
  }

  /** Stops accepting adds; workers get the items still queued, then `undefined`. */
  shutDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.onShutDown();
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(undefined);
    this.unregisterScrape?.();
    if (this.processing.size === 0) this.releaseDrainWaiters();
  }

  /** `shutDown`, then resolves once every item handed out has been `done` (in-flight work finished). */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0 && this.len() === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Items currently handed out; for tests and diagnostics. */
  processingCount(): number {
    return this.processing.size;
  }

  protected onShutDown(): void {
    // Subclasses release their timers here.
  }

  private enqueue(item: T, priority: number): void {
    const waiter = this.waiters.shift();
    this.queuedSince.set(item, this.clock.now());
    this.items.push(item, priority);
    if (waiter) {
      waiter(this.take());
      return;
    }
    this.metrics?.depth.set({ name: this.name }, this.len());
  }

  private take(): T {
    const { item, priority } = this.items.shift()!;
    this.dirty.delete(item);
    const t = this.clock.now();
    this.processing.set(item, t);
    this.handedAt.set(item, priority);
    const since = this.queuedSince.get(item);
    this.queuedSince.delete(item);
    if (this.metrics) {
      this.metrics.depth.set({ name: this.name }, this.len());
      if (since !== undefined)
        this.metrics.queueDuration.observe({ name: this.name }, elapsedSeconds(since, t));
    }
    return item;
  }

  private releaseDrainWaiters(): void {
    if (!this.shuttingDown || this.len() > 0) return;
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const w of waiters) w();
  }

  private updateRunningGauges(): void {
    if (!this.metrics) return;
    const t = this.clock.now();
    let longest = 0;
    let total = 0;
    for (const started of this.processing.values()) {
      const s = elapsedSeconds(started, t);
      total += s;
      longest = Math.max(longest, s);
    }
    this.metrics.longestRunning.set({ name: this.name }, longest);
    this.metrics.unfinishedWork.set({ name: this.name }, total);
  }

  protected recordRetry(): void {
    this.metrics?.retries.inc({ name: this.name });
  }
}

/** Seconds from `from` to `to`, never negative (a wall clock may step back). */
function elapsedSeconds(from: number, to: number): number {
  return Math.max(0, to - from) / 1000;
}
