/**
 * The server's own list/watch source for libs/runtime's informers: LIST and
 * WATCH of one storage key straight from the in-memory store, no HTTP. A list
 * is the current state, pending writes included (the server's own controllers
 * may act on them: their writes commit after them). A watch replays the
 * store's committed history after the requested resourceVersion (410 Gone
 * when it is older than the history keeps, so the reflector re-lists), then
 * follows every commit until the informer stops.
 *
 * The server's controllers get metadata only (as kube's garbage collector
 * watches PartialObjectMetadata) and read anything else from the store; the
 * workload simulator routes on whole objects (`wholeObject`). The store's objects
 * are frozen, as informer caches want what they hold, so they are shared, not copied.
 */
import { KubeApiError, type ListerWatcher, type StreamEnd, type WatchEvent } from '#runtime';
import type { Store } from '../store/store.js';
import type { ChangeEvent } from '../store/types.js';
import { type StoredObject } from '#kube-core';

/** The metadata an informer keeps of an object (a new top level; the store's frozen values inside are shared). */
export function metadataOf(obj: StoredObject): StoredObject {
  const m = obj.metadata;
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      ...(m.deletionTimestamp ? { deletionTimestamp: m.deletionTimestamp } : {}),
      ...(m.finalizers ? { finalizers: m.finalizers } : {}),
      ...(m.ownerReferences ? { ownerReferences: m.ownerReferences } : {}),
    },
  };
}

/** The whole object: the store's own, which is frozen, so the informer's cache can share it. */
export const wholeObject = (obj: StoredObject): StoredObject => obj;

/** One storage key of the store as a ListerWatcher; counts what it delivered, so an informer's backlog can be told. */
export class StoreListerWatcher implements ListerWatcher<StoredObject> {
  /** The newest resourceVersion handed to the informer (by a list or an event) that its handlers will see. */
  delivered = 0;
  /** Objects the informer knows of (listed or watched, not deleted): a deletion of anything else is not delivered. */
  private readonly known = new Set<string>();

  constructor(
    private readonly store: Store,
    readonly resource: string,
    /** What the informer keeps of each object; default its metadata. */
    private readonly project: (obj: StoredObject) => StoredObject = metadataOf,
  ) {}

  async listAll(options: {
    namespace?: string;
  }): Promise<{ items: StoredObject[]; resourceVersion: string }> {
    const entries = this.store.list(this.resource, options.namespace);
    this.known.clear();
    const items = entries.map((e) => {
      this.known.add(`${e.namespace}/${e.name}`);
      return this.count(this.project(e.object));
    });
    return { items, resourceVersion: String(this.store.currentRv()) };
  }

  watch(
    options: { namespace?: string; resourceVersion?: string; signal?: AbortSignal },
    onEvent: (event: WatchEvent<StoredObject>) => void,
  ): Promise<StreamEnd> {
    const from = Number(options.resourceVersion ?? this.store.currentRv());
    const replay = this.store.committedSince(from);
    if (!replay) {
      const message = `too old resource version: ${from} (${this.store.history.compactedRv + 1})`;
      return Promise.reject(new KubeApiError(410, 'Expired', message, 'WATCH', this.resource));
    }
    // One event per turn of the event loop: the informer has handled the previous one by then. (Handed over
    // synchronously, a deletion that follows the object's creation within one turn would be dropped: the
    // DeltaFIFO no longer holds the popped creation and its cache does not have it yet.)
    const pending: Array<WatchEvent<StoredObject>> = [];
    let timer: NodeJS.Immediate | undefined;
    const pump = () => {
      timer = undefined;
      const event = pending.shift();
      if (!event) return;
      if (pending.length) timer = setImmediate(pump);
      onEvent(event);
    };
    const deliver = (e: ChangeEvent) => {
      // A list includes pending writes (listAll): their commits, at or before `from`, are not news.
      if (e.rv <= from || e.resource !== this.resource) return;
      if (options.namespace && e.namespace !== options.namespace) return;
      const key = `${e.namespace}/${e.name}`;
      if (e.type === 'DELETED') {
        if (!this.known.delete(key)) return;
      } else this.known.add(key);
      pending.push({ type: e.type, object: this.count(this.project(e.object)) });
      timer ??= setImmediate(pump);
    };
    for (const e of replay) deliver(e);
    return new Promise((resolve) => {
      const signal = options.signal;
      const unsubscribe = this.store.subscribe(deliver);
      const end = () => {
        unsubscribe();
        if (timer) clearImmediate(timer);
        pending.length = 0;
        resolve({ reason: 'aborted' });
      };
      if (signal?.aborted) return end();
      signal?.addEventListener('abort', end, { once: true });
    });
  }

  private count(obj: StoredObject): StoredObject {
    this.delivered = Math.max(this.delivered, Number(obj.metadata.resourceVersion ?? 0));
    return obj;
  }
}
