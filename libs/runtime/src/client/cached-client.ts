import type { InformerFactory } from '../cache/informer-factory.js';
import type { SharedInformer } from '../cache/shared-informer.js';
import { NAMESPACE_INDEX } from '../cache/store.js';
import type { KubeObject } from '#kube-core';
import {
  ResourceClient,
  type DeleteOptions,
  type PatchOptions,
  type WriteOptions,
} from './resource-client.js';
import { isResourceKind, kindId, type KindRef, type ResourceKind } from './resource-kind.js';

export interface CachedListOptions {
  namespace?: string;
  /** Equality selector on labels, all must match. */
  labels?: Record<string, string>;
  /** Look up through a named index of the kind's informer instead of scanning. */
  index?: { name: string; value: string };
}

export interface ApplyOptions {
  force?: boolean;
  fieldManager?: string;
  subresource?: 'status';
  dryRun?: boolean;
}

/** An object that names itself: apiVersion, kind, metadata.name (and namespace when namespaced). */
export type ObjectRef = Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>;

/**
 * The controller's client (controller-runtime client.Client): reads from the
 * shared informer cache (starting and syncing the kind's informer on first
 * use), writes to the API server. Objects read are frozen; copy before editing.
 *
 * Every call takes the kind as a ResourceKind, or as apiVersion + kind (or the
 * object itself), mapped through discovery; a kind the server does not serve
 * rejects with NoKindMatchError naming it, after asking discovery again (so a
 * CRD installed since the last look is found). A read of a kind no informer
 * is pinned for holds its informer only while reading: it stops after the
 * factory's `idleStopMs` without reads.
 */
export class Client {
  private readonly writers = new Map<string, ResourceClient>();

  constructor(
    private readonly informers: InformerFactory,
    /** Used by `apply` when the call does not name a field manager. */
    readonly fieldManager: string,
    private readonly cacheSyncTimeoutMs = 60_000,
  ) {}

  /** The cached object of `ref` (a kind and its namespace/name, or an object naming itself). */
  get<T extends KubeObject = KubeObject>(obj: ObjectRef): Promise<T | undefined>;
  get<T extends KubeObject = KubeObject>(
    ref: KindRef<T>,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined>;
  async get<T extends KubeObject = KubeObject>(
    ref: KindRef<T> | ObjectRef,
    namespace?: string,
    name?: string,
  ): Promise<T | undefined> {
    const [kindRef, ns, n] = name === undefined ? split(ref as ObjectRef) : [ref, namespace, name];
    const kind = await this.informers.mapper.resolve<T>(kindRef as KindRef<T>);
    return this.fromCache(kind, (informer) => informer.indexer.get(kind.namespaced ? ns : undefined, n));
  }

  async list<T extends KubeObject = KubeObject>(
    ref: KindRef<T>,
    options: CachedListOptions = {},
  ): Promise<T[]> {
    const kind = await this.informers.mapper.resolve(ref);
    return this.fromCache(kind, (informer) => {
      let items = options.index
        ? informer.indexer.byIndex(options.index.name, options.index.value)
        : options.namespace !== undefined
          ? informer.indexer.byIndex(NAMESPACE_INDEX, options.namespace)
          : informer.indexer.list();
      if (options.index && options.namespace !== undefined)
        items = items.filter((o) => (o.metadata?.namespace ?? '') === options.namespace);
      const labels = Object.entries(options.labels ?? {});
      if (labels.length) items = items.filter((o) => labels.every(([k, v]) => o.metadata?.labels?.[k] === v));
      return items;
    });
  }

  /** The direct (uncached) client of a kind, for reads that must see the server's latest state. */
  resource<T extends KubeObject = KubeObject>(kind: ResourceKind<T>): ResourceClient<T> {
    const id = kindId(kind);
    let c = this.writers.get(id);
    if (!c) this.writers.set(id, (c = new ResourceClient(this.informers.transport, kind)));
    // One client per kind: the kind's T is the type of what it reads and writes.
    return c as ResourceClient<T>;
  }

  /** `resource` for a kind given as apiVersion + kind (or an object). */
  async resourceFor<T extends KubeObject = KubeObject>(ref: KindRef<T>): Promise<ResourceClient<T>> {
    return this.resource<T>(await this.informers.mapper.resolve(ref));
  }

  create<T extends KubeObject>(obj: T, options?: WriteOptions): Promise<T>;
  create<T extends KubeObject>(ref: KindRef<T>, obj: T, options?: WriteOptions): Promise<T>;
  async create<T extends KubeObject>(...args: WriteArgs<T, WriteOptions>): Promise<T> {
    const [kind, obj, options] = await this.writeArgs(args);
    return this.resource<T>(kind).create(obj, options);
  }

  update<T extends KubeObject>(obj: T, options?: WriteOptions): Promise<T>;
  update<T extends KubeObject>(ref: KindRef<T>, obj: T, options?: WriteOptions): Promise<T>;
  async update<T extends KubeObject>(...args: WriteArgs<T, WriteOptions>): Promise<T> {
    const [kind, obj, options] = await this.writeArgs(args);
    return this.resource<T>(kind).update(obj, options);
  }

  updateStatus<T extends KubeObject>(obj: T, options?: Omit<WriteOptions, 'subresource'>): Promise<T>;
  updateStatus<T extends KubeObject>(
    ref: KindRef<T>,
    obj: T,
    options?: Omit<WriteOptions, 'subresource'>,
  ): Promise<T>;
  async updateStatus<T extends KubeObject>(...args: WriteArgs<T, WriteOptions>): Promise<T> {
    const [kind, obj, options] = await this.writeArgs(args);
    return this.resource<T>(kind).update(obj, { ...options, subresource: 'status' });
  }

  async patch<T extends KubeObject = KubeObject>(
    ref: KindRef<T>,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    options: PatchOptions,
  ): Promise<T> {
    const kind = await this.informers.mapper.resolve(ref);
    return this.resource(kind).patch(namespace, name, patch, {
      fieldManager: this.fieldManager,
      ...options,
    });
  }

  /**
   * Server-side apply under this client's field manager (or the one given).
   * `apply(obj)` maps the object's own apiVersion and kind; `apply(kind, obj)`
   * uses the kind given.
   */
  apply<T extends KubeObject>(obj: T, options?: ApplyOptions): Promise<T>;
  apply<T extends KubeObject>(ref: KindRef<T>, obj: T, options?: ApplyOptions): Promise<T>;
  async apply<T extends KubeObject>(...args: WriteArgs<T, ApplyOptions>): Promise<T> {
    const [kind, obj, options = {}] = await this.writeArgs(args);
    return this.resource<T>(kind).apply(obj, {
      ...options,
      fieldManager: options.fieldManager ?? this.fieldManager,
    });
  }

  /** Deletes `obj` (an object naming itself) or the object `name` of a kind. */
  delete(obj: ObjectRef, options?: DeleteOptions): Promise<unknown>;
  delete(
    ref: KindRef,
    namespace: string | undefined,
    name: string,
    options?: DeleteOptions,
  ): Promise<unknown>;
  async delete(
    ref: KindRef | ObjectRef,
    a?: string | DeleteOptions,
    b?: string,
    c?: DeleteOptions,
  ): Promise<unknown> {
    const [kindRef, namespace, name, options] =
      typeof b === 'string'
        ? [ref, a as string | undefined, b, c]
        : [...split(ref as ObjectRef), a as DeleteOptions];
    const kind = await this.informers.mapper.resolve(kindRef);
    return this.resource(kind).delete(namespace, name, options);
  }

  private async writeArgs<T extends KubeObject, O>(args: WriteArgs<T, O>): Promise<[ResourceKind<T>, T, O?]> {
    if (args.length >= 2 && isResourceKind(args[0] as KindRef<T>)) {
      const [kind, obj, options] = args as [ResourceKind<T>, T, O?];
      return [kind, obj, options];
    }
    // (ref, obj): the second argument is an object (it has apiVersion and kind; an options bag has neither).
    if (isKindRefOnly(args[1])) {
      const [ref, obj, options] = args as [KindRef<T>, T, O?];
      return [await this.informers.mapper.resolve(ref), obj, options];
    }
    const [obj, options] = args as [T, O?];
    return [await this.informers.mapper.resolve<T>(obj), obj, options];
  }

  /** Runs `read` on the synced informer of `kind`, holding it for the read. */
  private async fromCache<T extends KubeObject, R>(
    kind: ResourceKind<T>,
    read: (informer: SharedInformer<T>) => R,
  ): Promise<R> {
    const lease = this.informers.hold(kind);
    try {
      const informer = lease.informer;
      if (!informer.isStarted()) informer.start();
      if (!informer.hasSynced()) {
        const ok = await informer.waitForSync(AbortSignal.timeout(this.cacheSyncTimeoutMs));
        if (!ok)
          throw new CacheNotSyncedError(
            `cache of ${kindId(kind)} not synced within ${this.cacheSyncTimeoutMs} ms; cannot read from it`,
          );
      }
      return read(informer);
    } finally {
      lease.release();
    }
  }
}

/** A cached read whose informer did not sync in time: the object cannot be read now. */
export class CacheNotSyncedError extends Error {
  override name = 'CacheNotSyncedError';
}

type WriteArgs<T extends KubeObject, O> = [T, O?] | [KindRef<T>, T, O?];

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null;
}

/** Has apiVersion and kind (an object or a bare reference), as opposed to an options bag. */
function isKindRefOnly(x: unknown): boolean {
  return isObject(x) && typeof x.apiVersion === 'string' && typeof x.kind === 'string';
}

function split(obj: ObjectRef): [KindRef, string | undefined, string] {
  const name = obj.metadata?.name;
  if (!name) throw new Error(`${obj.kind ?? 'object'} without metadata.name: cannot address it`);
  return [obj, obj.metadata?.namespace, name];
}
