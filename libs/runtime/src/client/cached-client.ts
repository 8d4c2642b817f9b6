import type { InformerFactory } from '../cache/informer-factory.js';
import { NAMESPACE_INDEX } from '../cache/store.js';
import type { KubeObject } from '#kube-core';
import {
  ResourceClient,
  type DeleteOptions,
  type PatchOptions,
  type WriteOptions,
} from './resource-client.js';
import { kindId, type ResourceKind } from './resource-kind.js';

export interface CachedListOptions {
  namespace?: string;
  /** Equality selector on labels, all must match. */
  labels?: Record<string, string>;
  /** Look up through a named index of the kind's informer instead of scanning. */
  index?: { name: string; value: string };
}

/**
 * The controller's client (controller-runtime client.Client): reads from the
 * shared informer cache (starting and syncing the kind's informer on first
 * use), writes to the API server. Objects read are frozen; copy before editing.
 */
export class Client {
  private readonly writers = new Map<string, ResourceClient>();

  constructor(
    private readonly informers: InformerFactory,
    /** Used by `apply` when the call does not name a field manager. */
    readonly fieldManager: string,
    private readonly cacheSyncTimeoutMs = 60_000,
  ) {}

  async get<T extends KubeObject = KubeObject>(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
  ): Promise<T | undefined> {
    const informer = await this.syncedInformer(kind);
    return informer.indexer.get(kind.namespaced ? namespace : undefined, name) as T | undefined;
  }

  async list<T extends KubeObject = KubeObject>(
    kind: ResourceKind,
    options: CachedListOptions = {},
  ): Promise<T[]> {
    const informer = await this.syncedInformer(kind);
    let items = options.index
      ? informer.indexer.byIndex(options.index.name, options.index.value)
      : options.namespace !== undefined
        ? informer.indexer.byIndex(NAMESPACE_INDEX, options.namespace)
        : informer.indexer.list();
    if (options.index && options.namespace !== undefined)
      items = items.filter((o) => (o.metadata?.namespace ?? '') === options.namespace);
    const labels = Object.entries(options.labels ?? {});
    if (labels.length) items = items.filter((o) => labels.every(([k, v]) => o.metadata?.labels?.[k] === v));
    return items as T[];
  }

  /** The direct (uncached) client of a kind, for reads that must see the server's latest state. */
  resource<T extends KubeObject = KubeObject>(kind: ResourceKind): ResourceClient<T> {
    const id = kindId(kind);
    let c = this.writers.get(id);
    if (!c) this.writers.set(id, (c = new ResourceClient(this.informers.transport, kind)));
    return c as ResourceClient<T>;
  }

  create<T extends KubeObject>(kind: ResourceKind, obj: T, options?: WriteOptions): Promise<T> {
    return this.resource<T>(kind).create(obj, options);
  }

  update<T extends KubeObject>(kind: ResourceKind, obj: T, options?: WriteOptions): Promise<T> {
    return this.resource<T>(kind).update(obj, options);
  }

  updateStatus<T extends KubeObject>(
    kind: ResourceKind,
    obj: T,
    options: Omit<WriteOptions, 'subresource'> = {},
  ): Promise<T> {
    return this.resource<T>(kind).update(obj, { ...options, subresource: 'status' });
  }

  patch<T extends KubeObject>(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    patch: unknown,
    options: PatchOptions,
  ): Promise<T> {
    return this.resource<T>(kind).patch(namespace, name, patch, {
      fieldManager: this.fieldManager,
      ...options,
    });
  }

  /** Server-side apply under this client's field manager (or the one given). */
  apply<T extends KubeObject>(
    kind: ResourceKind,
    obj: T,
    options: { force?: boolean; fieldManager?: string; subresource?: 'status'; dryRun?: boolean } = {},
  ): Promise<T> {
    return this.resource<T>(kind).apply(obj, {
      ...options,
      fieldManager: options.fieldManager ?? this.fieldManager,
    });
  }

  delete(
    kind: ResourceKind,
    namespace: string | undefined,
    name: string,
    options?: DeleteOptions,
  ): Promise<unknown> {
    return this.resource(kind).delete(namespace, name, options);
  }

  private async syncedInformer(kind: ResourceKind) {
    const informer = this.informers.informerFor(kind);
    if (!informer.isStarted()) informer.start();
    if (!informer.hasSynced()) {
      const ok = await informer.waitForSync(AbortSignal.timeout(this.cacheSyncTimeoutMs));
      if (!ok)
        throw new Error(
          `cache of ${kindId(kind)} not synced within ${this.cacheSyncTimeoutMs} ms; cannot read from it`,
        );
    }
    return informer;
  }
}
