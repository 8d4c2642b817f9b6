import { realClock, type Clock, type TimerHandle } from '../clock/clock.js';

export interface IdleCacheOptions {
  /** Most entries kept; past it the least recently used goes. */
  maxEntries: number;
  /**
   * Drops an entry once unused this long (between `idleMs` and 1.5 × `idleMs`
   * after its last use); default: never.
   */
  idleMs?: number;
  /** Time of last use and of the sweeps (default the wall clock). */
  clock?: Clock;
}

/**
 * A map that forgets: the least recently used entry first past `maxEntries`,
 * and, with `idleMs`, every entry unused that long. For what a controller
 * remembers about an application while it converges and never needs once it
 * settled (resolves, renders, template results): at rest it holds nothing.
 * One sweep timer at most, none while empty, and never what keeps the
 * process running (`close()` stops it).
 */
export class IdleCache<K, V> {
  /** In order of last use, oldest first (a use moves its entry to the end). */
  private readonly entries = new Map<K, { value: V; usedAt: number }>();
  private readonly clock: Clock;
  private sweep?: TimerHandle;
  /** Entries dropped for having been idle `idleMs`. */
  expired = 0;

  constructor(private readonly options: IdleCacheOptions) {
    if (options.idleMs !== undefined && !(options.idleMs > 0))
      throw new Error(`idleMs must be a positive number of milliseconds, got ${options.idleMs}`);
    this.clock = options.clock ?? realClock;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    entry.usedAt = this.clock.now();
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, usedAt: this.clock.now() });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    if (this.options.idleMs !== undefined) this.schedule(this.options.idleMs);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drops every entry and stops the sweep. */
  close(): void {
    this.clock.clearTimeout(this.sweep);
    this.sweep = undefined;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private schedule(delayMs: number): void {
    if (this.sweep !== undefined) return;
    this.sweep = this.clock.setTimeout(() => {
      this.sweep = undefined;
      this.dropIdle();
    }, delayMs);
    (this.sweep as { unref?: () => void }).unref?.();
  }

  /** Drops the entries idle `idleMs`: the oldest first, so it stops at the first one still in use. */
  private dropIdle(): void {
    const idleMs = this.options.idleMs!;
    const now = this.clock.now();
    for (const [key, entry] of this.entries) {
      const idleFor = now - entry.usedAt;
      if (idleFor < idleMs) {
        // Sweeping at most every idleMs / 2 bounds the timer work whatever the traffic.
        this.schedule(Math.max(idleMs - idleFor, idleMs / 2));
        return;
      }
      this.entries.delete(key);
      this.expired++;
    }
  }
}
