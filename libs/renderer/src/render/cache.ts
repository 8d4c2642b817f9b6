import { realClock, type Clock, type TimerHandle } from '#kube-core';
import type { TemplateResult } from '../engines/engine.js';

export interface RenderCacheOptions {
  /** Most entries kept; past it the least recently used goes (default 2,000). */
  maxEntries?: number;
  /**
   * Drops an entry once it has not been used for this long (default: never).
   * A controller renders an application while it converges and then not
   * again until something changes, so at rest its entries only hold memory.
   * Entries go between `idleMs` and 1.5 × `idleMs` after their last use.
   */
  idleMs?: number;
  /** Time of last use and of the sweeps (default the wall clock). */
  clock?: Clock;
}

interface Entry {
  result: TemplateResult;
  usedAt: number;
}

/**
 * Template results keyed by a hash of (definition, parameters, context).
 * Entries are frozen deeply, so a hit can be handed out without copying and
 * no caller can corrupt it. Least recently used entries go first; with
 * `idleMs`, entries idle that long go too (`close()` stops that timer).
 */
export class RenderCache {
  /** In order of last use, oldest first (a hit moves its entry to the end). */
  private readonly entries = new Map<string, Entry>();
  private readonly maxEntries: number;
  private readonly idleMs?: number;
  private readonly clock: Clock;
  private sweep?: TimerHandle;
  hits = 0;
  misses = 0;
  /** Entries dropped for having been idle `idleMs`. */
  expired = 0;

  constructor(options: RenderCacheOptions | number = {}) {
    const o = typeof options === 'number' ? { maxEntries: options } : options;
    this.maxEntries = o.maxEntries ?? 2000;
    if (o.idleMs !== undefined && !(o.idleMs > 0))
      throw new Error(`RenderCache idleMs must be a positive number of milliseconds, got ${o.idleMs}`);
    this.idleMs = o.idleMs;
    this.clock = o.clock ?? realClock;
  }

  get(key: string): TemplateResult | undefined {
    const hit = this.entries.get(key);
    if (!hit) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key);
    hit.usedAt = this.clock.now();
    this.entries.set(key, hit);
    return hit.result;
  }

  set(key: string, result: TemplateResult): TemplateResult {
    const frozen = deepFreeze(result);
    this.entries.delete(key);
    this.entries.set(key, { result: frozen, usedAt: this.clock.now() });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.scheduleSweep(this.idleMs);
    return frozen;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops every entry and stops the idle sweep (the process may then exit). */
  close(): void {
    this.clock.clearTimeout(this.sweep);
    this.sweep = undefined;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** One sweep at most is pending, and only while there are entries to expire. */
  private scheduleSweep(delayMs: number | undefined): void {
    if (delayMs === undefined || this.sweep !== undefined) return;
    this.sweep = this.clock.setTimeout(() => {
      this.sweep = undefined;
      this.dropIdle();
    }, delayMs);
  }

  /** Drops the entries idle `idleMs` (the oldest first, so it stops at the first one still in use). */
  private dropIdle(): void {
    const idleMs = this.idleMs!;
    const now = this.clock.now();
    for (const [key, entry] of this.entries) {
      const idleFor = now - entry.usedAt;
      if (idleFor < idleMs) {
        // Sweeping at most every idleMs / 2 bounds the timer work whatever the traffic.
        this.scheduleSweep(Math.max(idleMs - idleFor, idleMs / 2));
        return;
      }
      this.entries.delete(key);
      this.expired++;
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
