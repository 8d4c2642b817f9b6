import { sleepOn, type Clock, type TimerHandle } from './clock.js';

interface FakeTimer {
  readonly id: number;
  /** When it fires, in the fake clock's milliseconds. */
  readonly due: number;
  readonly fn: () => void;
}

/**
 * A clock that moves only when a test says so (k8s.io/utils/clock/testing).
 *
 * `advance(ms)` fires every timer that falls due within `ms`, in order of due
 * time (ties in order of creation), with `now()` set to each timer's due time
 * while it runs; between timers it lets pending promise callbacks and I/O
 * settle, so async code that a timer resumes runs before the next timer.
 * Timers scheduled while advancing fire in the same advance when they fall
 * due within it.
 */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  /** Pending timers, unordered; `advance` picks the earliest each time. */
  private readonly timers = new Map<number, FakeTimer>();
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer: FakeTimer = { id: this.nextId++, due: this.current + Math.max(0, ms), fn };
    this.timers.set(timer.id, timer);
    this.wakeWaiters();
    return { id: timer.id };
  }

  clearTimeout(handle: TimerHandle | undefined): void {
    const id = (handle as { id?: number } | undefined)?.id;
    if (id !== undefined) this.timers.delete(id);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return sleepOn(this, ms, signal);
  }

  /** How many timers are waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  /** Milliseconds until the earliest pending timer, or undefined when none is pending. */
  nextDelay(): number | undefined {
    let earliest: number | undefined;
    for (const t of this.timers.values()) if (earliest === undefined || t.due < earliest) earliest = t.due;
    return earliest === undefined ? undefined : earliest - this.current;
  }

  /** Moves time forward by `ms`, firing what falls due (see the class comment). */
  async advance(ms: number): Promise<void> {
    const target = this.current + Math.max(0, ms);
    await settle();
    for (;;) {
      const next = this.earliestDueBy(target);
      if (!next) break;
      this.timers.delete(next.id);
      this.current = next.due;
      next.fn();
      await settle();
    }
    this.current = target;
    await settle();
  }

  /** Advances to the earliest pending timer and fires it (and any due at the same instant). */
  async advanceToNext(): Promise<void> {
    const delay = this.nextDelay();
    if (delay !== undefined) await this.advance(delay);
  }

  /**
   * Resolves once at least `count` timers are pending: the way a test waits
   * until async code has reached its next wait before advancing past it.
   */
  waitForTimers(count = 1): Promise<void> {
    if (this.timers.size >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  private earliestDueBy(target: number): FakeTimer | undefined {
    let best: FakeTimer | undefined;
    for (const t of this.timers.values()) {
      if (t.due > target) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.id < best.id)) best = t;
    }
    return best;
  }

  private wakeWaiters(): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.timers.size >= this.waiters[i]!.count) this.waiters.splice(i, 1)[0]!.resolve();
    }
  }
}

/** Lets queued promise callbacks and ready I/O callbacks run (one turn of the event loop). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
