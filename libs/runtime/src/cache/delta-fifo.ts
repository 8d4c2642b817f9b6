import { objectKey, type KubeObject } from '#kube-core';

export type DeltaType = 'Added' | 'Updated' | 'Deleted' | 'Replaced' | 'Sync';

/**
 * Placed in a Deleted delta when the deletion was not seen on the watch but
 * inferred from a re-list: `obj` is the last state the cache knew, which may be stale.
 */
export class DeletedFinalStateUnknown<T> {
  constructor(
    readonly key: string,
    readonly obj: T | undefined,
  ) {}
}

export interface Delta<T> {
  type: DeltaType;
  object: T | DeletedFinalStateUnknown<T>;
}

/** What the consumer already has (the indexer): used to infer deletions on re-list and to resync. */
export interface KnownObjects<T> {
  listKeys(): string[];
  getByKey(key: string): T | undefined;
}

/**
 * A producer/consumer queue of per-object change lists (client-go delta_fifo.go).
 * The Reflector produces; the informer's processing loop consumes with `pop()`.
 *
 * Each key is queued once however many changes arrive before it is popped;
 * its deltas keep their order, so the consumer sees everything that happened
 * since it last processed the key. Two consecutive deletions collapse into one.
 */
export class DeltaFIFO<T extends KubeObject = KubeObject> {
  /** key → pending deltas, oldest first; never empty; has an entry iff the key is in `queue`. */
  private readonly items = new Map<string, Delta<T>[]>();
  /** Keys in pop order, each at most once. */
  private queue: string[] = [];
  private head = 0;
  /** True once the first replace (or any add/update/delete) happened. */
  private populated = false;
  /** Keys from the first replace not yet popped; the cache is synced when this reaches 0. */
  private initialPopulationCount = 0;
  private waiters: Array<(v: { key: string; deltas: Delta<T>[] } | undefined) => void> = [];
  private syncedWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly knownObjects?: KnownObjects<T>) {}

  add(obj: T): void {
    this.populated = true;
    this.queueAction('Added', obj);
  }

  update(obj: T): void {
    this.populated = true;
    this.queueAction('Updated', obj);
  }

  /** Queues a deletion; skipped if neither the consumer nor the queue knows the object (already gone). */
  delete(obj: T | DeletedFinalStateUnknown<T>): void {
    const key = obj instanceof DeletedFinalStateUnknown ? obj.key : objectKey(obj);
    this.populated = true;
    const known = this.knownObjects?.getByKey(key) || this.items.has(key) || this.inFlight?.key === key;
    if (this.knownObjects && !known) return;
    this.queueAction('Deleted', obj);
  }

  /**
   * The result of a (re-)LIST: `Replaced` for every listed object, and a
   * `Deleted` tombstone with the last known state for every object the
   * consumer (or the queue) has that is no longer listed.
   */
  replace(list: readonly T[]): void {
    const listed = new Set<string>();
    for (const obj of list) {
      const key = objectKey(obj);
      listed.add(key);
      this.queueAction('Replaced', obj, key);
    }
    for (const key of this.knownObjects?.listKeys() ?? []) {
      if (listed.has(key)) continue;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(key, this.knownObjects!.getByKey(key)), key);
    }
    // Objects seen on the watch but not yet popped (so unknown to the consumer) and gone from the list.
    for (const [key, deltas] of this.items) {
      if (listed.has(key) || this.knownObjects?.getByKey(key)) continue;
      const newest = deltas[deltas.length - 1];
      if (newest.type === 'Deleted') continue;
      this.queueAction('Deleted', new DeletedFinalStateUnknown(key, newest.object as T), key);
    }
    // The same for the entry the consumer is processing right now, unless a change for it is queued again.
    const held = this.inFlight;
    if (
      held &&
      !listed.has(held.key) &&
      !this.items.has(held.key) &&
      !this.knownObjects?.getByKey(held.key)
    ) {
      const newest = held.deltas[held.deltas.length - 1];
      if (newest.type !== 'Deleted')
        this.queueAction('Deleted', new DeletedFinalStateUnknown(held.key, newest.object as T), held.key);
    }
    if (!this.populated) {
      this.populated = true;
      this.initialPopulationCount = this.len();
      this.notifyIfSynced();
    }
  }

  /** Queues a `Sync` for every known object with nothing pending (a periodic resync). */
  resync(): void {
    for (const key of this.knownObjects?.listKeys() ?? []) {
      if (this.items.has(key)) continue; // a pending change is newer than the cached state
      const obj = this.knownObjects!.getByKey(key);
      if (obj) this.queueAction('Sync', obj, key);
    }
  }

  /** The next key with its deltas, waiting if needed; `undefined` once closed. */
  pop(): Promise<{ key: string; deltas: Delta<T>[] } | undefined> {
    if (this.len() > 0) return Promise.resolve(this.take());
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Resolves once everything from the first replace has been popped *and* the
   * consumer has handled it: callbacks run after the pop's promise continuation,
   * so call `markProcessed()` after processing each popped entry.
   */
  whenSynced(): Promise<void> {
    if (this.hasSynced() && this.processedSincePop) return Promise.resolve();
    return new Promise((resolve) => this.syncedWaiters.push(resolve));
  }

  /** The consumer finished the entry it popped last. */
  markProcessed(): void {
    this.processedSincePop = true;
    this.inFlight = undefined;
    this.notifyIfSynced();
  }

  /**
   * True when everything delivered by the first replace has been popped, or
   * (client-go semantics) when an add/update/delete came before any replace.
   */
  hasSynced(): boolean {
    return this.populated && this.initialPopulationCount === 0;
  }

  len(): number {
    return this.queue.length - this.head;
  }

  /** Pending deltas for a key (a copy); for tests and diagnostics. */
  pending(key: string): Delta<T>[] | undefined {
    const d = this.items.get(key);
    return d ? [...d] : undefined;
  }

  close(): void {
    this.closed = true;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w(undefined);
  }

  private queueAction(type: DeltaType, obj: T | DeletedFinalStateUnknown<T>, knownKey?: string): void {
    const key = knownKey ?? (obj instanceof DeletedFinalStateUnknown ? obj.key : objectKey(obj));
    const existing = this.items.get(key);
    if (existing) {
      existing.push({ type, object: obj });
      dedupDeletions(existing);
      return;
    }
    this.items.set(key, [{ type, object: obj }]);
    this.queue.push(key);
    const waiter = this.waiters.shift();
    if (waiter) waiter(this.take());
  }

  private processedSincePop = true;
  /**
   * The entry popped last, from `take()` until `markProcessed()`: gone from
   * `items` yet not in the consumer's store. A deletion of its key in that
   * window is real and must be queued (client-go holds its lock across
   * processing; here the consumer runs a microtask later).
   */
  private inFlight?: { key: string; deltas: Delta<T>[] };

  private notifyIfSynced(): void {
    if (!this.hasSynced() || !this.processedSincePop || this.syncedWaiters.length === 0) return;
    const waiters = this.syncedWaiters;
    this.syncedWaiters = [];
    for (const w of waiters) w();
  }

  private take(): { key: string; deltas: Delta<T>[] } {
    this.processedSincePop = false;
    const key = this.queue[this.head++];
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    const deltas = this.items.get(key)!;
    this.items.delete(key);
    if (this.initialPopulationCount > 0) this.initialPopulationCount--;
    this.inFlight = { key, deltas };
    return { key, deltas };
  }
}

/** Two deletions in a row are one; keep the one with the real final state over a tombstone. In place. */
function dedupDeletions<T>(deltas: Delta<T>[]): void {
  const n = deltas.length;
  if (n < 2) return;
  const a = deltas[n - 2];
  const b = deltas[n - 1];
  if (a.type !== 'Deleted' || b.type !== 'Deleted') return;
  deltas.splice(n - 2, 2, b.object instanceof DeletedFinalStateUnknown ? a : b);
}
