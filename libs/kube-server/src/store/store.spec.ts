import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Store } from './store.js';
import type { ChangeEvent } from './types.js';
import { type StoredObject } from '#kube-core';

const cm = (name: string, data: Record<string, string> = {}, namespace = 'default'): StoredObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace },
  data,
});

describe('Store', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kube-store-'));
    store = new Store(join(dir, 'db'), 5);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every write the next global resourceVersion and emits ADDED/MODIFIED/DELETED', async () => {
    const events: ChangeEvent[] = [];
    store.subscribe((e) => events.push(e));
    expect(store.put('/configmaps', cm('a')).metadata.resourceVersion).toBe('1');
    expect(store.put('apps/deployments', { ...cm('d'), kind: 'Deployment' }).metadata.resourceVersion).toBe(
      '2',
    );
    expect(store.put('/configmaps', cm('a', { k: 'v' })).metadata.resourceVersion).toBe('3');
    const deleted = store.remove('/configmaps', 'default', 'a');
    expect(deleted?.metadata.resourceVersion).toBe('4');
    // Listeners hear of changes once they are committed.
    expect(events).toEqual([]);
    store.flush();
    await store.whenDurable();
    expect(events.map((e) => `${e.type} ${e.name} ${e.rv}`)).toEqual([
      'ADDED a 1',
      'ADDED d 2',
      'MODIFIED a 3',
      'DELETED a 4',
    ]);
    expect(events[2].prev?.data).toEqual({});
    expect(store.remove('/configmaps', 'default', 'a')).toBeUndefined();
  });

  it('freezes what it stores, so readers share objects instead of copying them', () => {
    const stored = store.put('/configmaps', cm('a', { k: 'v' }));
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(stored.data)).toBe(true);
    expect(store.get('/configmaps', 'default', 'a')?.object).toBe(stored);
    expect(() => {
      (stored.data as Record<string, string>).k = 'changed';
    }).toThrow(TypeError);
    expect(Object.isFrozen(store.remove('/configmaps', 'default', 'a'))).toBe(true);
  });

  it('commits the writes of one turn of the event loop together, then tells listeners and waiters', async () => {
    const committed: string[] = [];
    const made: string[] = [];
    store.subscribe((e) => committed.push(`${e.name} ${e.rv} durable at ${store.committedRv()}`));
    store.onWrite((e) => made.push(`${e.name} ${e.rv}`));
    expect(store.whenDurable()).toBeUndefined();
    store.put('/configmaps', cm('a'));
    store.put('/configmaps', cm('b'));
    store.put('/configmaps', cm('a', { k: 'v' }));
    expect(made).toEqual(['a 1', 'b 2', 'a 3']);
    expect(store.currentRv()).toBe(3);
    expect(store.committedRv()).toBe(0);
    expect(store.get('/configmaps', 'default', 'a')?.object.data).toEqual({ k: 'v' });
    expect(store.committedSince(0)).toEqual([]);
    const durable = store.whenDurable();
    expect(durable).toBeDefined();
    await durable;
    expect(committed).toEqual(['a 1 durable at 3', 'b 2 durable at 3', 'a 3 durable at 3']);
    expect(store.committedSince(0)?.map((e) => e.rv)).toEqual([1, 2, 3]);
    expect(store.hasPending()).toBe(false);
    store.remove('/configmaps', 'default', 'b');
    // Closing commits what is pending.
    store.close();
    store = new Store(join(dir, 'db'), 5);
    expect(store.currentRv()).toBe(4);
    expect(store.list('/configmaps').map((e) => [e.name, e.rv, e.object.data])).toEqual([
      ['a', 3, { k: 'v' }],
    ]);
  });

  it('commits one batch at a time: writes made meanwhile go in the next, and listeners hear of both in order', async () => {
    const committed: string[] = [];
    store.subscribe((e) => committed.push(`${e.name} ${e.rv} durable at ${store.committedRv()}`));
    store.put('/configmaps', cm('a'));
    store.flush();
    const first = store.whenDurable();
    store.put('/configmaps', cm('b'));
    store.flush(); // the first batch is still in flight: this one waits for it
    expect(store.hasPending()).toBe(true);
    await first;
    expect(committed).toEqual(['a 1 durable at 1']);
    await store.whenDurable();
    expect(committed).toEqual(['a 1 durable at 1', 'b 2 durable at 2']);
    expect(store.hasPending()).toBe(false);
  });

  it('closes with a batch in flight and writes pending: both are committed and told before it returns', () => {
    const committed: number[] = [];
    store.subscribe((e) => committed.push(e.rv));
    store.put('/configmaps', cm('a'));
    store.flush();
    store.put('/configmaps', cm('b'));
    store.close();
    expect(committed).toEqual([1, 2]);
    store = new Store(join(dir, 'db'), 5);
    expect(store.currentRv()).toBe(2);
    expect(store.list('/configmaps').map((e) => e.name)).toEqual(['a', 'b']);
  });

  it('fails the waiters of a commit that failed, the writes made meanwhile, and every later write', async () => {
    // Another connection holds the write lock: the commit gives up after SQLite's busy timeout.
    const other = new Database(join(dir, 'db'));
    other.exec('BEGIN IMMEDIATE');
    const committed: ChangeEvent[] = [];
    store.subscribe((e) => committed.push(e));
    store.put('/configmaps', cm('a'));
    store.flush();
    const first = store.whenDurable();
    store.put('/configmaps', cm('b'));
    const second = store.whenDurable();
    const message =
      'the store could not commit writes up to resourceVersion 1 (SqliteError: database is locked); restart the server';
    const failure = expect.objectContaining({ code: 500, reason: 'InternalError', message });
    await expect(first).rejects.toEqual(failure);
    await expect(second).rejects.toEqual(failure);
    expect(() => store.put('/configmaps', cm('c'))).toThrow(failure);
    expect(() => store.remove('/configmaps', 'default', 'a')).toThrow(failure);
    expect(committed).toEqual([]);
    other.exec('ROLLBACK');
    other.close();
  });

  it("finds a claim's candidates and labelled objects by index, in list order", () => {
    const pod = (
      name: string,
      labels: Record<string, string>,
      owner?: { uid: string; controller?: boolean },
      namespace = 'a',
    ) => ({
      ...cm(name, {}, namespace),
      kind: 'Pod',
      metadata: {
        name,
        namespace,
        labels,
        ...(owner
          ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', ...owner }] }
          : {}),
      },
    });
    store.put('/pods', pod('p3', { app: 'x' }, { uid: 'u1', controller: true }));
    store.put('/pods', pod('p1', { app: 'x' }, { uid: 'u1', controller: true }));
    store.put('/pods', pod('p2', { app: 'y' }, { uid: 'u2', controller: true }));
    store.put('/pods', pod('orphan', { app: 'x' }));
    store.put('/pods', pod('elsewhere', { app: 'x' }, undefined, 'b'));
    store.put('/pods', pod('owned-not-controlled', { app: 'x' }, { uid: 'u1' }));
    const names = (entries: Array<{ namespace: string; name: string }>) =>
      entries.map((e) => `${e.namespace}/${e.name}`);
    expect(names(store.ownedOrOrphans('/pods', 'a', 'u1'))).toEqual([
      'a/orphan',
      'a/owned-not-controlled',
      'a/p1',
      'a/p3',
    ]);
    expect(names(store.withLabel('/pods', 'a', 'app', 'x'))).toEqual([
      'a/orphan',
      'a/owned-not-controlled',
      'a/p1',
      'a/p3',
    ]);
    expect(names(store.withLabel('/pods', '', 'app', 'x'))).toHaveLength(5);
    // Indexes follow changes and removals.
    store.put('/pods', pod('p1', { app: 'y' }, { uid: 'u2', controller: true }));
    store.remove('/pods', 'a', 'orphan');
    expect(names(store.ownedOrOrphans('/pods', 'a', 'u1'))).toEqual(['a/owned-not-controlled', 'a/p3']);
    expect(names(store.withLabel('/pods', 'a', 'app', 'y'))).toEqual(['a/p1', 'a/p2']);
    // An update that keeps labels and owners keeps the entries; dropping the controller flag makes an orphan.
    store.put('/pods', {
      ...pod('p2', { app: 'y' }, { uid: 'u2', controller: true }),
      data: { changed: 'yes' },
    });
    store.put('/pods', pod('p3', { app: 'x' }, { uid: 'u1' }));
    expect(names(store.withLabel('/pods', 'a', 'app', 'y'))).toEqual(['a/p1', 'a/p2']);
    expect(names(store.ownedOrOrphans('/pods', 'a', 'u2'))).toEqual([
      'a/owned-not-controlled',
      'a/p1',
      'a/p2',
      'a/p3',
    ]);
  });

  it('keeps objects and the counter across a reopen', () => {
    store.put('/configmaps', cm('a'));
    store.put('/configmaps', cm('b'));
    store.remove('/configmaps', 'default', 'b');
    store.close();
    store = new Store(join(dir, 'db'), 5);
    expect(store.currentRv()).toBe(3);
    expect(store.list('/configmaps').map((e) => e.name)).toEqual(['a']);
    expect(store.put('/configmaps', cm('c')).metadata.resourceVersion).toBe('4');
    // Changes from before the restart are not in the history: a watch from them must relist.
    expect(store.history.since(2)).toBeUndefined();
    expect(store.history.since(3)?.map((e) => e.name)).toEqual(['c']);
  });

  it('lists sorted by namespace/name and filters by namespace', () => {
    store.put('/configmaps', cm('b', {}, 'ns2'));
    store.put('/configmaps', cm('z', {}, 'ns1'));
    store.put('/configmaps', cm('a', {}, 'ns2'));
    expect(store.list('/configmaps').map((e) => `${e.namespace}/${e.name}`)).toEqual([
      'ns1/z',
      'ns2/a',
      'ns2/b',
    ]);
    expect(store.list('/configmaps', 'ns2').map((e) => e.name)).toEqual(['a', 'b']);
  });

  it('rebuilds the state at an older resourceVersion from the history', () => {
    store.put('/configmaps', cm('a', { v: '1' }));
    store.put('/configmaps', cm('b'));
    const at = store.currentRv();
    store.put('/configmaps', cm('a', { v: '2' }));
    store.remove('/configmaps', 'default', 'b');
    store.put('/configmaps', cm('c'));
    const snap = store.snapshot('/configmaps', at);
    expect(snap.map((e) => [e.name, e.object.data, e.rv])).toEqual([
      ['a', { v: '1' }, 1],
      ['b', {}, 2],
    ]);
  });

  it('compacts the history beyond its window: older resourceVersions are 410 Expired', () => {
    for (let i = 0; i < 8; i++) store.put('/configmaps', cm(`c${i}`));
    expect(store.history.since(2)).toBeUndefined();
    expect(store.history.since(3)?.map((e) => e.rv)).toEqual([4, 5, 6, 7, 8]);
    expect(() => store.snapshot('/configmaps', 1)).toThrow(
      expect.objectContaining({ code: 410, reason: 'Expired' }),
    );
  });
});
