import { realClock, type Clock, type TimerHandle } from '#kube-core';
import type { Logger } from '../core.js';
import { errorMessage, statusCode } from './sim.js';

/**
 * Deduplicating work queue: a key is processed at most once per drain, every
 * drain runs on its own macrotask (so writes never nest inside a store event),
 * failures retry with per-key exponential backoff, and stop() cancels everything.
 */
export class WorkQueue {
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, { at: number; timer: TimerHandle }>();
  private readonly failures = new Map<string, number>();
  private immediate?: NodeJS.Immediate;
  private stopped = false;

  /**
   * Delays run on `clock`; a drain always runs on the next macrotask (not a clock timer), so with a
   * FakeClock queued work still happens on its own and only delayed wake-ups wait for the test.
   */
  constructor(
    private readonly handle: (key: string) => void,
    private readonly log: Logger,
    private readonly clock: Clock = realClock,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.dirty.add(key);
    this.immediate ??= setImmediate(() => this.drain());
  }

  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) return this.add(key);
    const at = this.clock.now() + ms;
    const pending = this.timers.get(key);
    if (pending && pending.at <= at) return;
    if (pending) this.clock.clearTimeout(pending.timer);
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, ms);
    (timer as { unref?: () => void }).unref?.();
    this.timers.set(key, { at, timer });
  }

  /** Whether a key is queued for the next drain right now (delayed wake-ups aside). */
  get busy(): boolean {
    return !this.stopped && (this.dirty.size > 0 || this.immediate !== undefined);
  }

  /** Resolves once nothing is queued right now (timers may still be pending). */
  async idle(): Promise<void> {
    while (this.busy) await new Promise((r) => setImmediate(r));
  }

  stop(): void {
    this.stopped = true;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
    for (const { timer } of this.timers.values()) this.clock.clearTimeout(timer);
    this.timers.clear();
    this.dirty.clear();
  }

  private drain(): void {
    this.immediate = undefined;
    const keys = [...this.dirty];
    this.dirty.clear();
    for (const key of keys) {
      if (this.stopped) return;
      try {
        this.handle(key);
        this.failures.delete(key);
      } catch (err) {
        const attempt = (this.failures.get(key) ?? 0) + 1;
        this.failures.set(key, attempt);
        const code = statusCode(err);
        // A conflict means someone wrote in between: retry at once from fresh state (a few times), then back off.
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
        if (delay === 0) this.add(key);
        else this.addAfter(key, delay);
      }
    }
  }
}
