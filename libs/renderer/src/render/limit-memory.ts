import { realClock, type Clock } from '#kube-core';
import type { RenderError } from '../errors.js';

export interface LimitMemoryOptions {
  clock?: Clock;
  /** How long a first failure is answered from memory (default 1 min); it doubles each time. */
  firstMs?: number;
  /** The longest it is answered from memory (default 10 min). */
  maxMs?: number;
  /** Inputs remembered at most (default 1,000); the oldest goes first. */
  maxEntries?: number;
}

interface Entry {
  errors: RenderError[];
  failures: number;
  until: number;
}

/**
 * Evaluations that hit a limit, by input hash: the same input is answered with the same
 * errors instead of being evaluated again, for 1 min after the first failure, doubling up to
 * 10 min with each failure after. A controller retries a failed app on its own backoff; without
 * this, each retry would spend another full limit of CPU on a template known to exceed it.
 */
export class LimitMemory {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;
  private sweptAt = 0;

  constructor(private readonly options: LimitMemoryOptions = {}) {
    this.clock = options.clock ?? realClock;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The errors this input failed with, while its backoff runs. */
  recall(key: string): RenderError[] | undefined {
    this.sweep();
    const entry = this.entries.get(key);
    return entry && this.clock.now() < entry.until ? entry.errors : undefined;
  }

  remember(key: string, errors: RenderError[]): void {
    const failures = (this.entries.get(key)?.failures ?? 0) + 1;
    const first = this.options.firstMs ?? 60_000;
    const backoff = Math.min(first * 2 ** (failures - 1), this.options.maxMs ?? 600_000);
    this.entries.delete(key); // re-inserted last: the oldest entries go first
    if (this.entries.size >= (this.options.maxEntries ?? 1000))
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { errors, failures, until: this.clock.now() + backoff });
  }

  /**
   * Forgets inputs whose backoff ended longer ago than the longest backoff (at most once a
   * minute): the renderer hashes every input while anything is remembered, so an incident
   * long over should not keep it doing so. Such an input starts again at 1 min.
   */
  private sweep(): void {
    const now = this.clock.now();
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    const quiet = this.options.maxMs ?? 600_000;
    for (const [key, entry] of this.entries) if (now > entry.until + quiet) this.entries.delete(key);
  }

  /** The input evaluated within its limits after all. */
  forget(key: string): void {
    this.entries.delete(key);
  }
}
