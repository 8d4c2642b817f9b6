import { deepFreeze, IdleCache, type Clock } from '#kube-core';
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

/**
 * Template results keyed by a hash of (definition, parameters, context).
 * Entries are frozen deeply, so a hit can be handed out without copying and
 * no caller can corrupt it. Least recently used entries go first; with
 * `idleMs`, entries idle that long go too (`close()` stops that timer).
 */
export class RenderCache {
  private readonly entries: IdleCache<string, TemplateResult>;
  hits = 0;
  misses = 0;

  constructor(options: RenderCacheOptions | number = {}) {
    const o = typeof options === 'number' ? { maxEntries: options } : options;
    this.entries = new IdleCache({ maxEntries: o.maxEntries ?? 2000, idleMs: o.idleMs, clock: o.clock });
  }

  get(key: string): TemplateResult | undefined {
    const hit = this.entries.get(key);
    if (hit) this.hits++;
    else this.misses++;
    return hit;
  }

  set(key: string, result: TemplateResult): TemplateResult {
    const frozen = deepFreeze(result);
    this.entries.set(key, frozen);
    return frozen;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops every entry and stops the idle sweep (the process may then exit). */
  close(): void {
    this.entries.close();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Entries dropped for having been idle `idleMs`. */
  get expired(): number {
    return this.entries.expired;
  }
}
