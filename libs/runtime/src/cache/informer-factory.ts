import { type Clock, type KubeObject, realClock, type TimerHandle } from '#kube-core';
import { ResourceClient } from '../client/resource-client.js';
import { kindId, type KindRef, type ResourceKind } from '../client/resource-kind.js';
import { RestMapper } from '../client/rest-mapper.js';
import type { KubeTransport } from '../client/transport.js';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import { SharedInformer, type EventHandler, type SharedInformerOptions } from './shared-informer.js';
import type { IndexFunc } from './store.js';

export type InformerDefaults = Omit<
  SharedInformerOptions<KubeObject>,
  'listerWatcher' | 'name' | 'indexers' | 'logger'
> & {
  /**
   * How long an informer nobody holds (every lease released, never asked for
   * through `informerFor`) keeps running before it is stopped: a kind read or
   * watched again soon does not re-list. Default 60 s; 0 stops at once.
   */
  idleStopMs?: number;
};

/** A hold on a dynamic informer; `release()` (idempotent) removes the handler it added and lets the informer stop. */
export interface InformerLease<T extends KubeObject = KubeObject> {
  readonly informer: SharedInformer<T>;
  readonly kind: ResourceKind<T>;
  release(): void;
}

export interface AcquireOptions<T extends KubeObject> {
  indexers?: Record<string, IndexFunc<T>>;
  /** Added now, removed on release. */
  handler?: EventHandler<T>;
}

interface Entry {
  informer: SharedInformer<KubeObject>;
  /** Asked for through `informerFor`: runs until the factory stops. */
  pinned: boolean;
  holders: number;
  idleTimer?: TimerHandle;
}

/**
 * Hands out one SharedInformer per kind (and namespace scope) for the whole
 * process, so every controller reading Deployments shares one cache and one
 * watch. Informers asked for after `start()` start at once.
 *
 * Two lifetimes: `informerFor(kind)` pins an informer until the factory stops
 * (what controllers declare up front); `acquire(ref)` holds one by reference
 * count (kinds known only at run time): when the last lease is released and
 * nothing pinned it, it stops after `idleStopMs` (its watch and timers end)
 * and a later `acquire` starts a new one.
 */
export class InformerFactory {
  /** Maps apiVersion + kind to resources, for `acquire` and the Client. */
  readonly mapper: RestMapper;
  private readonly entries = new Map<string, Entry>();
  private started = false;
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly idleStopMs: number;
  private readonly defaults: InformerDefaults;

  constructor(
    readonly transport: KubeTransport,
    defaults: InformerDefaults & { logger?: Logger; mapper?: RestMapper } = {},
  ) {
    const { logger, mapper, idleStopMs, ...rest } = defaults;
    this.defaults = rest;
    this.log = logger ?? silentLogger;
    this.clock = defaults.clock ?? realClock;
    this.idleStopMs = idleStopMs ?? 60_000;
    this.mapper = mapper ?? new RestMapper(transport, { now: () => this.clock.now() });
  }

  /** The informer of a kind, pinned: it runs until the factory stops. */
  informerFor<T extends KubeObject = KubeObject>(
    kind: ResourceKind<T>,
    options: { indexers?: Record<string, IndexFunc<T>> } = {},
  ): SharedInformer<T> {
    const entry = this.entry(kind);
    entry.pinned = true;
    this.clock.clearTimeout(entry.idleTimer);
    const informer = informerOf<T>(entry);
    for (const [name, fn] of Object.entries(options.indexers ?? {})) informer.addIndexer(name, fn);
    return informer;
  }

  /**
   * Holds the informer of a kind given as a ResourceKind or as an object's
   * apiVersion + kind (mapped through discovery; a kind the server does not
   * serve rejects with NoKindMatchError naming it). Started at once if the
   * factory runs.
   */
  async acquire<T extends KubeObject = KubeObject>(
    ref: KindRef<T>,
    options: AcquireOptions<T> = {},
  ): Promise<InformerLease<T>> {
    return this.hold<T>(await this.mapper.resolve(ref), options);
  }

  /** `acquire` for a kind already mapped; synchronous. */
  hold<T extends KubeObject = KubeObject>(
    kind: ResourceKind<T>,
    options: AcquireOptions<T> = {},
  ): InformerLease<T> {
    const id = this.idOf(kind);
    const entry = this.entry(kind);
    entry.holders++;
    this.clock.clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    const informer = informerOf<T>(entry);
    try {
      for (const [name, fn] of Object.entries(options.indexers ?? {})) informer.addIndexer(name, fn);
    } catch (err) {
      this.releaseEntry(id, entry);
      throw err;
    }
    const registration = options.handler ? informer.addEventHandler(options.handler) : undefined;
    let released = false;
    return {
      informer,
      kind,
      release: () => {
        if (released) return;
        released = true;
        registration?.remove();
        this.releaseEntry(id, entry);
      },
    };
  }

  start(): void {
    this.started = true;
    for (const e of this.entries.values()) e.informer.start();
  }

  hasSynced(): boolean {
    return this.list().every((i) => i.hasSynced());
  }

  /** Waits until every informer has synced; throws naming the ones that did not within `timeoutMs`. */
  async waitForCacheSync(timeoutMs = 120_000, signal?: AbortSignal): Promise<void> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const informers = this.list();
    const results = await Promise.all(informers.map((i) => i.waitForSync(both)));
    if (results.every(Boolean)) return;
    const pending = informers.filter((i) => !i.hasSynced()).map((i) => i.name);
    throw new Error(`caches not synced within ${timeoutMs} ms: ${pending.join(', ')}`);
  }

  /** The informers that exist now (pinned, held, or idle and not yet stopped). */
  list(): SharedInformer<KubeObject>[] {
    return [...this.entries.values()].map((e) => e.informer);
  }

  async stop(): Promise<void> {
    for (const e of this.entries.values()) this.clock.clearTimeout(e.idleTimer);
    await Promise.all(this.list().map((i) => i.stop()));
  }

  private idOf(kind: ResourceKind): string {
    return `${kindId(kind)}@${this.defaults.namespace ?? '*'}`;
  }

  private entry(kind: ResourceKind): Entry {
    const id = this.idOf(kind);
    let entry = this.entries.get(id);
    if (!entry) {
      const informer = new SharedInformer<KubeObject>({
        ...this.defaults,
        listerWatcher: new ResourceClient<KubeObject>(this.transport, kind),
        name: kindId(kind),
        logger: this.log,
      });
      entry = { informer, pinned: false, holders: 0 };
      this.entries.set(id, entry);
      if (this.started) informer.start();
    }
    return entry;
  }

  private releaseEntry(id: string, entry: Entry): void {
    entry.holders--;
    if (entry.holders > 0 || entry.pinned) return;
    const stop = (): void => {
      if (this.entries.get(id) !== entry || entry.holders > 0 || entry.pinned) return;
      this.entries.delete(id);
      this.log.debug('informer stopped: no longer used', { informer: entry.informer.name });
      void entry.informer.stop();
    };
    if (this.idleStopMs <= 0) return stop();
    this.clock.clearTimeout(entry.idleTimer);
    entry.idleTimer = this.clock.setTimeout(stop, this.idleStopMs);
  }
}

/**
 * The informer of an entry as its kind's T: entries of every kind share one
 * map, and the informer of a ResourceKind<T> holds T's (the one cast between them).
 */
function informerOf<T extends KubeObject>(entry: Entry): SharedInformer<T> {
  return entry.informer as unknown as SharedInformer<T>;
}
