/** The priority of an add that names none. Higher is served first. */
export const DEFAULT_PRIORITY = 0;
/**
 * For work nothing asked for: informer resyncs (the object did not change)
 * and periodic re-checks. A real change waits for none of it
 * (controller-runtime's priority queue uses the same value).
 */
export const LOW_PRIORITY = -100;

/**
 * The waiting line of a work queue: FIFO within a priority, higher
 * priorities first. An item appears at most once; raising the priority of a
 * waiting item moves it to the back of its new level (it then counts as added
 * by that change). A lowering request keeps the higher priority: the item
 * was wanted sooner by someone.
 */
export class PriorityFifo<T> {
  /** Levels, highest first; each a FIFO with a head index. Stale entries (moved up since) are skipped when reached. */
  private levels: Level<T>[] = [];
  /** Each waiting item's current priority and the sequence number of its live entry. */
  private readonly at = new Map<T, { priority: number; seq: number }>();
  private seq = 0;

  get length(): number {
    return this.at.size;
  }

  has(item: T): boolean {
    return this.at.has(item);
  }

  priorityOf(item: T): number | undefined {
    return this.at.get(item)?.priority;
  }

  /** Queues `item` at `priority`, or raises it there if it waits lower. */
  push(item: T, priority: number): void {
    const current = this.at.get(item);
    if (current !== undefined && current.priority >= priority) return;
    const seq = ++this.seq;
    this.at.set(item, { priority, seq });
    this.level(priority).entries.push({ item, seq });
  }

  /** The first item of the highest level, or undefined when empty. */
  shift(): { item: T; priority: number } | undefined {
    while (this.levels.length > 0) {
      const level = this.levels[0];
      while (level.head < level.entries.length) {
        const { item, seq } = level.entries[level.head++];
        if (this.at.get(item)?.seq !== seq) continue; // moved to a higher level since
        this.at.delete(item);
        this.compact(level);
        return { item, priority: level.priority };
      }
      this.levels.shift();
    }
    return undefined;
  }

  private level(priority: number): Level<T> {
    let i = 0;
    while (i < this.levels.length && this.levels[i].priority > priority) i++;
    if (this.levels[i]?.priority === priority) return this.levels[i];
    const level: Level<T> = { priority, entries: [], head: 0 };
    this.levels.splice(i, 0, level);
    return level;
  }

  private compact(level: Level<T>): void {
    if (level.head > 1024 && level.head * 2 > level.entries.length) {
      level.entries = level.entries.slice(level.head);
      level.head = 0;
    }
  }
}

interface Level<T> {
  priority: number;
  entries: { item: T; seq: number }[];
  head: number;
}
