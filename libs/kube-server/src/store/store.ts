import { ApiError } from '../errors.js';
import { History } from './history.js';
import { loadSqlite, type Row } from './sqlite.js';
import { SqliteWriter } from './sqlite-writer.js';
import type { ChangeEvent, ObjectRef, StoredEntry } from './types.js';
import { type StoredObject } from '#kube-core';
import { ObjectIndex, objectKey, refKey } from './object-index.js';
import { forgetJson, freezeStored, jsonOf } from './json-text.js';
import { checkStoredSize } from './size-limit.js';

export type ChangeListener = (event: ChangeEvent) => void;

/**
 * All objects in memory (reads never touch the disk), SQLite as the durable
 * copy, one global resourceVersion, and a history ring for watches. Objects
 * are also indexed (ObjectIndex: by uid, owner and label), so ownership
 * questions and selector lists are answered from the current state.
 *
 * Group commit: a write changes the memory at once (the next write sees it,
 * resourceVersions are assigned in order) and joins the pending batch; the
 * batch is committed in one transaction, one fsync, by a worker thread
 * (SqliteWriter), sent on the next turn of the event loop or by `flush()`.
 * One batch is in flight at a time: writes that arrive while it commits join
 * the batch after it, sent as soon as it is answered. Only then do `subscribe`
 * listeners (watches, informers) see the changes, in resourceVersion order,
 * and `whenDurable()` resolve: the HTTP layer answers a request only after
 * what it saw is durable.
 * `onWrite` listeners keep derived in-memory state (served CRDs, allocated
 * cluster IPs) in step with every write as it is made.
 *
 * Stored objects are deeply frozen: readers (the HTTP layer, watches, informers, the
 * simulator) share them instead of copying, and a change is always a new object put.
 */
export class Store {
  private readonly writer: SqliteWriter;
  private readonly byResource = new Map<string, Map<string, StoredEntry>>();
  private readonly sortedKeys = new Map<string, string[]>();
  private readonly listeners = new Set<ChangeListener>();
  private readonly writeListeners = new Set<ChangeListener>();
  private readonly indexes = new ObjectIndex();
  readonly history: History;
  private rv: number;
  /** The newest resourceVersion on disk; writes after it are pending. */
  private committed: number;
  /** The writes not sent to the disk yet. */
  private pending = new Batch();
  /** The batch being committed, if any. */
  private inFlight?: Batch;
  private flushTimer?: NodeJS.Immediate;
  /** Set once a commit failed: memory holds writes the disk lost, so no write is taken any more. */
  private failure?: Error;

  constructor(
    path: string,
    historyWindow: number,
    private readonly onListenerError: (err: unknown, event: ChangeEvent) => void = (err) => {
      throw err;
    },
  ) {
    const loaded = loadSqlite(path);
    this.rv = loaded.resourceVersion;
    this.committed = this.rv;
    for (const row of loaded.rows) {
      this.table(row.resource).set(objectKey(row.namespace, row.name), {
        namespace: row.namespace,
        name: row.name,
        rv: row.rv,
        object: freezeStored(row.object),
      });
      this.indexes.add({ resource: row.resource, namespace: row.namespace, name: row.name }, row.object);
    }
    this.history = new History(historyWindow, this.rv);
    this.writer = new SqliteWriter(path);
  }

  /** The newest resourceVersion, committed or pending: what reads see. */
  currentRv(): number {
    return this.rv;
  }

  /** The newest resourceVersion on disk: what watchers have been told about. */
  committedRv(): number {
    return this.committed;
  }

  /** True while writes wait for their commit. */
  hasPending(): boolean {
    return this.pending.events.length > 0 || this.inFlight !== undefined;
  }

  /**
   * Resolves once every write made so far is on disk (undefined when it already is).
   * Rejects when their commit failed.
   */
  whenDurable(): Promise<void> | undefined {
    // The pending batch is committed after the one in flight, or fails with it.
    const last = this.pending.events.length ? this.pending : this.inFlight;
    return last?.done();
  }

  /** The committed changes after rv, oldest first (undefined when rv is older than the history keeps). */
  committedSince(rv: number): ChangeEvent[] | undefined {
    const changes = this.history.since(rv);
    if (!changes) return undefined;
    let end = changes.length;
    while (end > 0 && changes[end - 1].rv > this.committed) end--;
    return end === changes.length ? changes : changes.slice(0, end);
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
    return this.indexes.byUid(uid);
  }

  /** The objects whose ownerReferences name this uid (whether or not that owner exists). */
  dependentsOf(uid: string): ObjectRef[] {
    return this.indexes.dependentsOf(uid);
  }

  /**
   * The candidates of a controller's claim, found by index: the objects of a resource (in a
   * namespace; '' for all) that name `uid` among their owners or have no controller at all.
   */
  ownedOrOrphans(resource: string, namespace: string, uid: string): StoredEntry[] {
    return this.entries(resource, namespace, this.indexes.claimable(resource, uid));
  }

  /** The objects of a resource (in a namespace; '' for all) with the label key=value, found by index. */
  withLabel(resource: string, namespace: string, key: string, value: string): StoredEntry[] {
    return this.entries(resource, namespace, this.indexes.labelledWith(resource, namespace, key, value));
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

  /**
   * Stores a new or changed object; sets its resourceVersion and freezes it (the caller gives it
   * up). Returns the stored object.
   */
  put(resource: string, object: StoredObject): StoredObject {
    this.writable();
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name as string;
    const prev = this.get(resource, namespace, name);
    object.metadata.resourceVersion = String(this.rv + 1);
    // The text made here is the one the disk, the response and the watches get.
    checkStoredSize(`${resource}/${namespace}/${name}`, jsonOf(freezeStored(object)));
    const rv = ++this.rv;
    const table = this.table(resource);
    if (!prev) this.sortedKeys.delete(resource);
    table.set(objectKey(namespace, name), { namespace, name, rv, object });
    const ref = { resource, namespace, name };
    if (prev) this.indexes.update(ref, prev.object, object);
    else this.indexes.add(ref, object);
    this.record({
      type: prev ? 'MODIFIED' : 'ADDED',
      resource,
      namespace,
      name,
      rv,
      object,
      prev: prev?.object,
    });
    return object;
  }

  /** Removes an object; the DELETED event carries it with the deletion's resourceVersion. */
  remove(resource: string, namespace: string, name: string, final?: StoredObject): StoredObject | undefined {
    this.writable();
    const prev = this.get(resource, namespace, name);
    if (!prev) return undefined;
    const rv = ++this.rv;
    this.table(resource).delete(objectKey(namespace, name));
    this.sortedKeys.delete(resource);
    this.indexes.remove({ resource, namespace, name }, prev.object);
    const last = final ?? prev.object;
    const deleted = freezeStored({ ...last, metadata: { ...last.metadata, resourceVersion: String(rv) } });
    this.record({ type: 'DELETED', resource, namespace, name, rv, object: deleted, prev: prev.object });
    return deleted;
  }

  /**
   * Sends the pending writes to the disk now, in one transaction, unless a batch is in flight (then
   * they go when it is answered). Once they are committed, the listeners and the waiters are told.
   * A failed commit fails the waiters and every later write.
   */
  flush(): void {
    if (this.flushTimer) clearImmediate(this.flushTimer);
    this.flushTimer = undefined;
    if (this.inFlight || this.failure || !this.pending.events.length) return;
    const batch = this.pending;
    this.pending = new Batch();
    this.inFlight = batch;
    // An object written twice in the batch is stored once, as it ended up.
    const rows = new Map<string, Row>();
    for (const e of batch.events) {
      const row: Row = { resource: e.resource, namespace: e.namespace, name: e.name, rv: e.rv };
      if (e.type !== 'DELETED') row.data = jsonOf(e.object);
      rows.set(refKey(e), row);
    }
    const rv = batch.events[batch.events.length - 1].rv;
    this.writer.commit([...rows.values()], rv, (error) => this.committedTo(rv, batch, error));
  }

  /** The answer to the batch in flight: the next batch goes to the disk, then this one is told. */
  private committedTo(rv: number, batch: Batch, error: string | undefined): void {
    this.inFlight = undefined;
    if (error !== undefined) {
      this.failure = new ApiError(
        500,
        'InternalError',
        `the store could not commit writes up to resourceVersion ${rv} (${error}); restart the server`,
      );
      // The writes made since will not be committed either: memory holds what the disk lost.
      batch.fail(this.failure);
      this.pending.fail(this.failure);
      return;
    }
    this.flush();
    this.committed = rv;
    for (const event of batch.events) this.emit(event);
    for (const event of batch.events) {
      forgetJson(event.object);
      forgetJson(event.prev);
    }
    batch.succeed();
  }

  /** Storage keys that hold (or held) objects. */
  resourceKeys(): string[] {
    return [...this.byResource.keys()];
  }

  /** Committed changes, in resourceVersion order, after their commit (watches and informers). */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every change as it is made, before its commit: for state derived from the store's memory. */
  onWrite(listener: ChangeListener): () => void {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  /** Commits what is pending (blocking until it is on disk), then closes the database. */
  close(): void {
    this.flush();
    this.writer.drain();
    this.listeners.clear();
    this.writeListeners.clear();
    this.writer.close();
  }

  private writable(): void {
    if (this.failure) throw this.failure;
  }

  /** A change made in memory: into the history (snapshots need it at once) and the pending batch. */
  private record(event: ChangeEvent): void {
    this.history.push(event);
    this.pending.events.push(event);
    this.flushTimer ??= setImmediate(() => this.flush());
    this.notify(this.writeListeners, event);
  }

  private emit(event: ChangeEvent): void {
    this.notify(this.listeners, event);
  }

  private notify(listeners: Set<ChangeListener>, event: ChangeEvent): void {
    for (const listener of listeners) {
      // The write is made: a failing listener must not turn it into an error for the writer.
      try {
        listener(event);
      } catch (err) {
        this.onListenerError(err, event);
      }
    }
  }

  /** The entries of a resource with these object keys, in a namespace ('' for all), sorted as `list` sorts. */
  private entries(resource: string, namespace: string, keys: Iterable<string> | undefined): StoredEntry[] {
    const table = this.byResource.get(resource);
    if (!table || !keys) return [];
    const out: StoredEntry[] = [];
    for (const key of keys) {
      const entry = table.get(key);
      if (entry && (!namespace || entry.namespace === namespace)) out.push(entry);
    }
    return out.sort((a, b) => {
      const ka = objectKey(a.namespace, a.name);
      const kb = objectKey(b.namespace, b.name);
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    });
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

/** Writes committed together, and whoever waits for them. */
class Batch {
  readonly events: ChangeEvent[] = [];
  private waiters?: { promise: Promise<void>; resolve(): void; reject(err: Error): void };
  private failure?: Error;

  /** Resolves once the batch is committed; rejects when it failed. */
  done(): Promise<void> {
    if (!this.waiters) {
      let resolve!: () => void;
      let reject!: (err: Error) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      // A waiter that stopped listening (a closed connection) must not make the rejection unhandled.
      promise.catch(() => undefined);
      this.waiters = { promise, resolve, reject };
      if (this.failure) reject(this.failure);
    }
    return this.waiters.promise;
  }

  succeed(): void {
    this.waiters?.resolve();
  }

  fail(err: Error): void {
    this.failure ??= err;
    this.waiters?.reject(err);
  }
}

export function tooOld(rv: number, oldest: number): ApiError {
  return new ApiError(410, 'Expired', `too old resource version: ${rv} (${oldest + 1})`);
}
