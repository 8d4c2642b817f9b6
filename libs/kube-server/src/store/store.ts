import { ApiError } from '../errors.js';
import { History } from './history.js';
import { SqliteStore } from './sqlite.js';
import type { ChangeEvent, EventType, ObjectRef, StoredEntry } from './types.js';
import { type StoredObject } from '#kube-core';

export type ChangeListener = (event: ChangeEvent) => void;

const objectKey = (namespace: string, name: string) => `${namespace}/${name}`;
const refKey = (r: ObjectRef) => `${r.resource}|${r.namespace}|${r.name}`;
const parseRef = (key: string): ObjectRef => {
  const [resource, namespace, name] = key.split('|');
  return { resource, namespace, name };
};

/**
 * All objects in memory (reads never touch the disk), SQLite as the durable
 * copy, one global resourceVersion, and a history ring for watches. Writes are
 * synchronous: a write returns after its transaction committed, then listeners
 * run (they must not block). Objects are also indexed by uid and by the owners
 * they reference, so ownership questions (the garbage collector's, deletion's)
 * are answered from the current state.
 */
export class Store {
  private readonly db: SqliteStore;
  private readonly byResource = new Map<string, Map<string, StoredEntry>>();
  private readonly sortedKeys = new Map<string, string[]>();
  private readonly listeners = new Set<ChangeListener>();
  /** uid → where the object is. */
  private readonly uids = new Map<string, ObjectRef>();
  /** owner uid → the objects that name it in their ownerReferences (refKey). */
  private readonly dependents = new Map<string, Set<string>>();
  readonly history: History;
  private rv: number;

  constructor(
    path: string,
    historyWindow: number,
    private readonly onListenerError: (err: unknown, event: ChangeEvent) => void = (err) => {
      throw err;
    },
  ) {
    this.db = new SqliteStore(path);
    this.rv = this.db.resourceVersion();
    for (const row of this.db.loadAll()) {
      this.table(row.resource).set(objectKey(row.namespace, row.name), {
        namespace: row.namespace,
        name: row.name,
        rv: row.rv,
        object: row.object,
      });
      this.index({ resource: row.resource, namespace: row.namespace, name: row.name }, row.object);
    }
    this.history = new History(historyWindow, this.rv);
  }

  currentRv(): number {
    return this.rv;
  }

  get(resource: string, namespace: string, name: string): StoredEntry | undefined {
    return this.byResource.get(resource)?.get(objectKey(namespace, name));
  }

  /** Current objects, sorted by namespace/name (the order kube lists in); namespace '' means all. */
  list(resource: string, namespace?: string): StoredEntry[] {
    const table = this.byResource.get(resource);
    if (!table) return [];
    let keys = this.sortedKeys.get(resource);
    if (!keys) {
      keys = [...table.keys()].sort();
      this.sortedKeys.set(resource, keys);
    }
    const entries = keys.map((k) => table.get(k) as StoredEntry);
    return namespace ? entries.filter((e) => e.namespace === namespace) : entries;
  }

  /** Where the object with this uid is stored, if it exists. */
  byUid(uid: string): ObjectRef | undefined {
    return this.uids.get(uid);
  }

  /** The objects whose ownerReferences name this uid (whether or not that owner exists). */
  dependentsOf(uid: string): ObjectRef[] {
    return [...(this.dependents.get(uid) ?? [])].map(parseRef);
  }

  /** The objects as they were at rv, rebuilt from the current state and the history after it. */
  snapshot(resource: string, rv: number, namespace?: string): StoredEntry[] {
    if (rv >= this.rv) return this.list(resource, namespace);
    const changes = this.history.since(rv);
    if (!changes) throw tooOld(rv, this.history.compactedRv);
    const state = new Map(this.list(resource, namespace).map((e) => [objectKey(e.namespace, e.name), e]));
    for (let i = changes.length - 1; i >= 0; i--) {
      const c = changes[i];
      if (c.resource !== resource || (namespace && c.namespace !== namespace)) continue;
      const key = objectKey(c.namespace, c.name);
      if (c.type === 'ADDED' || !c.prev) state.delete(key);
      else
        state.set(key, {
          namespace: c.namespace,
          name: c.name,
          rv: Number(c.prev.metadata.resourceVersion),
          object: c.prev,
        });
    }
    return [...state.keys()].sort().map((k) => state.get(k) as StoredEntry);
  }

  /** Stores a new or changed object; sets its resourceVersion. Returns the stored object. */
  put(resource: string, object: StoredObject): StoredObject {
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name as string;
    const prev = this.get(resource, namespace, name);
    const rv = this.rv + 1;
    object.metadata.resourceVersion = String(rv);
    this.db.commit(resource, namespace, name, rv, object);
    this.rv = rv;
    const table = this.table(resource);
    if (!prev) this.sortedKeys.delete(resource);
    table.set(objectKey(namespace, name), { namespace, name, rv, object });
    const ref = { resource, namespace, name };
    if (prev) this.unindex(ref, prev.object);
    this.index(ref, object);
    this.emit(prev ? 'MODIFIED' : 'ADDED', resource, namespace, name, rv, object, prev?.object);
    return object;
  }

  /** Removes an object; the DELETED event carries it with the deletion's resourceVersion. */
  remove(resource: string, namespace: string, name: string, final?: StoredObject): StoredObject | undefined {
    const prev = this.get(resource, namespace, name);
    if (!prev) return undefined;
    const rv = this.rv + 1;
    this.db.commit(resource, namespace, name, rv, undefined);
    this.rv = rv;
    this.table(resource).delete(objectKey(namespace, name));
    this.sortedKeys.delete(resource);
    this.unindex({ resource, namespace, name }, prev.object);
    const last = final ?? prev.object;
    const deleted = { ...last, metadata: { ...last.metadata, resourceVersion: String(rv) } };
    this.emit('DELETED', resource, namespace, name, rv, deleted, prev.object);
    return deleted;
  }

  /** Storage keys that hold (or held) objects. */
  resourceKeys(): string[] {
    return [...this.byResource.keys()];
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.listeners.clear();
    this.db.close();
  }

  private emit(
    type: EventType,
    resource: string,
    namespace: string,
    name: string,
    rv: number,
    object: StoredObject,
    prev?: StoredObject,
  ) {
    const event: ChangeEvent = { type, resource, namespace, name, rv, object, prev };
    this.history.push(event);
    for (const listener of this.listeners) {
      // The write is committed: a failing listener must not turn it into an error for the writer.
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err, event);
      }
    }
  }

  private index(ref: ObjectRef, obj: StoredObject): void {
    if (obj.metadata.uid) this.uids.set(obj.metadata.uid, ref);
    for (const owner of obj.metadata.ownerReferences ?? []) {
      let set = this.dependents.get(owner.uid);
      if (!set) this.dependents.set(owner.uid, (set = new Set()));
      set.add(refKey(ref));
    }
  }

  private unindex(ref: ObjectRef, obj: StoredObject): void {
    if (obj.metadata.uid) this.uids.delete(obj.metadata.uid);
    for (const owner of obj.metadata.ownerReferences ?? []) {
      const set = this.dependents.get(owner.uid);
      set?.delete(refKey(ref));
      if (set && !set.size) this.dependents.delete(owner.uid);
    }
  }

  private table(resource: string): Map<string, StoredEntry> {
    let table = this.byResource.get(resource);
    if (!table) {
      table = new Map();
      this.byResource.set(resource, table);
    }
    return table;
  }
}

export function tooOld(rv: number, oldest: number): ApiError {
  return new ApiError(410, 'Expired', `too old resource version: ${rv} (${oldest + 1})`);
}
