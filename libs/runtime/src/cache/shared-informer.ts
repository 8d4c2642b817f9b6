import { type Clock, dropManagedFields, type KubeObject, realClock, type TimerHandle } from '#kube-core';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import { DeletedFinalStateUnknown, DeltaFIFO, type Delta } from './delta-fifo.js';
import { Reflector, type ListerWatcher, type ReflectorOptions, type ReflectorStats } from './reflector.js';
import { Indexer, NAMESPACE_INDEX, namespaceIndexFunc, type IndexFunc } from './store.js';

/**
 * Callbacks for cache changes. They run synchronously on the informer's
 * processing loop: keep them quick (map to a key, enqueue) and never mutate
 * the objects (they are frozen). An exception is logged with the object key
 * and does not stop other handlers.
 */
export interface EventHandler<T> {
  /** `isInInitialList`: the object was already there when the handler was added or at the first list. */
  onAdd?(obj: T, isInInitialList: boolean): void;
  /** Also called on resync and re-list with old === new content (use a predicate to filter). */
  onUpdate?(oldObj: T, newObj: T): void;
  /** `finalStateUnknown`: the deletion was inferred from a re-list and `obj` is the last state the cache knew. */
  onDelete?(obj: T, finalStateUnknown: boolean): void;
}

export interface HandlerRegistration {
  remove(): void;
}

export interface SharedInformerOptions<T> extends Pick<
  ReflectorOptions<T>,
  | 'namespace'
  | 'labelSelector'
  | 'fieldSelector'
  | 'pageSize'
  | 'watchTimeoutSeconds'
  | 'idleTimeoutMs'
  | 'backoffInitialMs'
  | 'backoffMaxMs'
  | 'clock'
> {
  listerWatcher: ListerWatcher<T>;
  name: string;
  indexers?: Record<string, IndexFunc<T>>;
  /** Applied before storing; default drops metadata.managedFields. Pass `null` to store objects as they come. */
  transform?: ((obj: T) => T) | null;
  /** Periodically replays every cached object to handlers as an update; 0 = never (default). */
  resyncPeriodMs?: number;
  logger?: Logger;
}

/**
 * One cache of one kind shared by every controller of the process
 * (client-go shared_informer.go): a Reflector fills a DeltaFIFO, one loop pops
 * it, updates the Indexer, then tells every handler.
 */
export class SharedInformer<T extends KubeObject = KubeObject> {
  readonly indexer: Indexer<T>;
  private readonly fifo: DeltaFIFO<T>;
  private readonly reflector: Reflector<T>;
  private readonly handlers = new Set<EventHandler<T>>();
  private readonly log: Logger;
  private abort?: AbortController;
  private loops: Promise<unknown>[] = [];
  private resyncTimer?: TimerHandle;
  private readonly clock: Clock;
  /** Latched: true once the first list has been fully applied and delivered (client-go's HasSynced). */
  private synced = false;

  constructor(private readonly options: SharedInformerOptions<T>) {
    this.indexer = new Indexer<T>({
      [NAMESPACE_INDEX]: namespaceIndexFunc as IndexFunc<T>,
      ...options.indexers,
    });
    this.fifo = new DeltaFIFO<T>(this.indexer);
    this.log = (options.logger ?? silentLogger).child({ informer: options.name });
    this.clock = options.clock ?? realClock;
    const transform =
      options.transform === null ? undefined : (options.transform ?? (dropManagedFields as (o: T) => T));
    this.reflector = new Reflector<T>({ ...options, fifo: this.fifo, transform, logger: options.logger });
  }

  get name(): string {
    return this.options.name;
  }

  /** Adds a handler. If the informer already runs, the handler first gets an add for every cached object. */
  addEventHandler(handler: EventHandler<T>): HandlerRegistration {
    this.handlers.add(handler);
    if (this.abort)
      for (const obj of this.indexer.list())
        this.call(handler, 'onAdd', obj, () => handler.onAdd?.(obj, true));
    return { remove: () => void this.handlers.delete(handler) };
  }

  /**
   * Adds an index. Controllers sharing this informer may register the same
   * index again (the same function: a no-op); another function under a name
   * already taken would silently answer with the first one's keys, so it throws.
   */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    const existing = this.indexer.indexerFunc(name);
    if (existing === fn) return;
    if (existing)
      throw new Error(
        `informer ${this.name}: indexer "${name}" is already registered with another function; ` +
          'share one function per index name, or pick another name',
      );
    this.indexer.addIndexer(name, fn);
  }

  isStarted(): boolean {
    return this.abort !== undefined;
  }

  /** Starts listing and watching; idempotent. */
  start(): void {
    if (this.abort) return;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.loops = [this.reflector.run(signal), this.processLoop()];
    void this.fifo.whenSynced().then(() => (this.synced = true));
    const period = this.options.resyncPeriodMs;
    if (period) {
      // A repeating timer on the clock: each resync schedules the next one, `period` later.
      const resync = (): void => {
        this.fifo.resync();
        if (!signal.aborted) this.resyncTimer = this.clock.setTimeout(resync, period);
      };
      this.resyncTimer = this.clock.setTimeout(resync, period);
    }
  }

  /** True once the first complete list has been stored and delivered to handlers. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Resolves true when synced, false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      void this.fifo.whenSynced().then(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  lastSyncResourceVersion(): string {
    return this.reflector.lastSyncResourceVersion();
  }

  stats(): ReflectorStats {
    return { ...this.reflector.stats };
  }

  async stop(): Promise<void> {
    if (!this.abort) return;
    this.abort.abort();
    this.clock.clearTimeout(this.resyncTimer);
    this.fifo.close();
    await Promise.all(this.loops);
  }

  private async processLoop(): Promise<void> {
    for (;;) {
      const entry = await this.fifo.pop();
      if (!entry) return;
      for (const delta of entry.deltas) this.apply(entry.key, delta);
      this.fifo.markProcessed();
    }
  }

  private apply(key: string, delta: Delta<T>): void {
    if (delta.type === 'Deleted') {
      const tombstone = delta.object instanceof DeletedFinalStateUnknown;
      const last = tombstone ? (delta.object as DeletedFinalStateUnknown<T>).obj : (delta.object as T);
      const removed = this.indexer.delete(key);
      const obj = last ?? removed;
      if (!obj) return;
      for (const h of this.handlers) this.call(h, 'onDelete', obj, () => h.onDelete?.(obj, tombstone));
      return;
    }
    const obj = delta.object as T;
    const old = this.indexer.getByKey(key);
    this.indexer.upsert(obj);
    if (old) {
      for (const h of this.handlers) this.call(h, 'onUpdate', obj, () => h.onUpdate?.(old, obj));
    } else {
      const initial = delta.type === 'Replaced' && !this.synced;
      for (const h of this.handlers) this.call(h, 'onAdd', obj, () => h.onAdd?.(obj, initial));
    }
  }

  private call(_h: EventHandler<T>, what: string, obj: T, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log.error(`event handler ${what} threw`, {
        error: err,
        object: `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`,
      });
    }
  }
}
