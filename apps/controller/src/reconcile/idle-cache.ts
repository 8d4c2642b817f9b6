import { realClock, type Clock, type TimerHandle } from '#kube-core';

/**
 * A map whose entries go once unused for `idleMs` (between `idleMs` and
 * 1.5 × `idleMs` after their last use), and the least recently used first
 * past `maxEntries`. For what a controller remembers about an application
 * while it converges and never needs once it settled: at rest it holds
 * nothing. One sweep timer at most, and none while empty.
 */
export class IdleCache<K, V> {
  /** In order of last use, oldest first. */
  private readonly entries = new Map<K, { value: V; usedAt: number }>();
  private sweep?: TimerHandle;

  constructor(private readonly options: { idleMs: number; maxEntries: number; clock?: Clock }) {}

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
    this.schedule(this.options.idleMs);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private get clock(): Clock {
    return this.options.clock ?? realClock;
  }

  private schedule(delayMs: number): void {
    if (this.sweep !== undefined) return;
    this.sweep = this.clock.setTimeout(() => {
      this.sweep = undefined;
      this.dropIdle();
    }, delayMs);
    // Never what keeps the process running.
    (this.sweep as { unref?: () => void }).unref?.();
  }

  private dropIdle(): void {
    const { idleMs } = this.options;
    const now = this.clock.now();
    for (const [key, entry] of this.entries) {
      const idleFor = now - entry.usedAt;
      if (idleFor < idleMs) {
        this.schedule(Math.max(idleMs - idleFor, idleMs / 2));
        return;
      }
      this.entries.delete(key);
    }
  }
}
