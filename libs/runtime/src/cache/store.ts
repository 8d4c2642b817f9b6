import { deepFreeze, objectKey, type KubeObject } from '#kube-core';

/** Maps an object to the index values it is found under (e.g. its namespace, its owners' uids). */
export type IndexFunc<T> = (obj: T) => readonly string[];

export const NAMESPACE_INDEX = 'namespace';
export const namespaceIndexFunc: IndexFunc<KubeObject> = (obj) => [obj.metadata?.namespace ?? ''];
/** Objects by the uid of their owners (all ownerReferences, controller or not). */
export const OWNER_UID_INDEX = 'ownerUid';
export const ownerUidIndexFunc: IndexFunc<KubeObject> = (obj) =>
  (obj.metadata?.ownerReferences ?? []).map((r) => r.uid);

/**
 * The informer's store (client-go thread_safe_store.go + index.go).
 *
 * Every method is synchronous, so no reader can observe a half-applied change
 * (JavaScript only interleaves at awaits). Objects are deep-frozen when
 * stored: callers get the stored object itself, cheaply, and any attempt to
 * mutate it throws in strict mode instead of corrupting the cache. Use
 * `deepCopy` to get an editable copy.
 */
export class Indexer<T extends KubeObject = KubeObject> {
  /** key → object; the only owner of the objects. */
  private items = new Map<string, T>();
  /** index name → index value → keys; always consistent with `items` after every public call returns. */
  private indices = new Map<string, Map<string, Set<string>>>();
  private readonly indexers = new Map<string, IndexFunc<T>>();

  constructor(indexers: Record<string, IndexFunc<T>> = {}) {
    for (const [name, fn] of Object.entries(indexers)) this.addIndexer(name, fn);
  }

  /** Adds an index; existing objects are indexed at once. Names are unique. */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`indexer "${name}" already exists`);
    this.indexers.set(name, fn);
    const index = new Map<string, Set<string>>();
    this.indices.set(name, index);
    for (const [key, obj] of this.items) addToIndex(index, fn(obj), key);
  }

  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  /** The function indexing under `name`, if any. */
  indexerFunc(name: string): IndexFunc<T> | undefined {
    return this.indexers.get(name);
  }

  /** Stores (or replaces) the object under its key; the object is frozen. */
  upsert(obj: T): T {
    const key = objectKey(obj);
    deepFreeze(obj);
    const old = this.items.get(key);
    this.items.set(key, obj);
    this.reindex(key, old, obj);
    return obj;
  }

  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.items.delete(key);
    this.reindex(key, old, undefined);
    return old;
  }

  /** Replaces the whole contents at once (a re-list); indexes are rebuilt before anyone can read. */
  replace(objects: readonly T[]): void {
    const items = new Map<string, T>();
    for (const o of objects) items.set(objectKey(o), deepFreeze(o));
    const indices = new Map<string, Map<string, Set<string>>>();
    for (const [name, fn] of this.indexers) {
      const index = new Map<string, Set<string>>();
      for (const [key, obj] of items) addToIndex(index, fn(obj), key);
      indices.set(name, index);
    }
    this.items = items;
    this.indices = indices;
  }

  getByKey(key: string): T | undefined {
    return this.items.get(key);
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.items.get(namespace ? `${namespace}/${name}` : name);
  }

  list(): T[] {
    return [...this.items.values()];
  }

  listKeys(): string[] {
    return [...this.items.keys()];
  }

  size(): number {
    return this.items.size;
  }

  /** Objects whose index function returned `value` under index `indexName`. */
  byIndex(indexName: string, value: string): T[] {
    const index = this.indices.get(indexName);
    if (!index)
      throw new Error(
        `no indexer named "${indexName}" (have: ${[...this.indexers.keys()].join(', ') || 'none'})`,
      );
    const keys = index.get(value);
    return keys ? [...keys].map((k) => this.items.get(k)!) : [];
  }

  /** The values present in an index (e.g. all namespaces that hold objects). */
  indexValues(indexName: string): string[] {
    const index = this.indices.get(indexName);
    if (!index) throw new Error(`no indexer named "${indexName}"`);
    return [...index.keys()];
  }

  private reindex(key: string, old: T | undefined, next: T | undefined): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      if (old) removeFromIndex(index, fn(old), key);
      if (next) addToIndex(index, fn(next), key);
    }
  }
}

function addToIndex(index: Map<string, Set<string>>, values: readonly string[], key: string): void {
  for (const v of values) {
    let set = index.get(v);
    if (!set) index.set(v, (set = new Set()));
    set.add(key);
  }
}

function removeFromIndex(index: Map<string, Set<string>>, values: readonly string[], key: string): void {
  for (const v of values) {
    const set = index.get(v);
    if (!set) continue;
    set.delete(key);
    if (set.size === 0) index.delete(v);
  }
}
