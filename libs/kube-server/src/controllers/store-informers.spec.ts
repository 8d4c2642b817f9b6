import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isGone } from '#runtime';
import { Store } from '../store/store.js';
import { type StoredObject } from '#kube-core';
import { StoreInformers } from './store-informers.js';
import { StoreListerWatcher } from './store-source.js';

const cm = (name: string, extra: Record<string, unknown> = {}): StoredObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', uid: `uid-${name}`, ...extra },
  data: { big: 'x' },
});

describe('the store as a list/watch source for runtime informers', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kube-informers-'));
    store = new Store(join(dir, 'db'), 3);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const settle = async (informers: StoreInformers) => {
    while (!informers.quiet()) await new Promise((r) => setImmediate(r));
  };

  it('delivers metadata only, every change in order, and a deletion right after a creation', async () => {
    store.put('/configmaps', cm('before'));
    const informers = new StoreInformers(store, () => undefined);
    const seen: string[] = [];
    informers.onEveryResource((resource) => ({
      onAdd: (obj) => seen.push(`${resource} add ${obj.metadata.name} ${JSON.stringify(Object.keys(obj))}`),
      onUpdate: (_old, obj) => seen.push(`${resource} update ${obj.metadata.name}`),
      onDelete: (obj) => seen.push(`${resource} delete ${obj.metadata.name}`),
    }));
    informers.ensure('/configmaps');
    informers.start();
    await settle(informers);
    // Within one turn of the event loop, while the informer watches: created and removed, created and changed.
    store.put('/configmaps', cm('brief'));
    store.remove('/configmaps', 'default', 'brief');
    store.put('/configmaps', cm('edited'));
    store.put('/configmaps', cm('edited', { labels: { a: 'b' } }));
    await settle(informers);
    expect(seen).toEqual([
      '/configmaps add before ["apiVersion","kind","metadata"]',
      '/configmaps add brief ["apiVersion","kind","metadata"]',
      '/configmaps delete brief',
      '/configmaps add edited ["apiVersion","kind","metadata"]',
      '/configmaps update edited',
    ]);
    await informers.stop();
  });

  it('answers a watch from before the kept history with 410 Gone, so the reflector re-lists', async () => {
    for (let i = 0; i < 5; i++) store.put('/configmaps', cm(`c${i}`));
    const source = new StoreListerWatcher(store, '/configmaps');
    const error = await source.watch({ resourceVersion: '1' }, () => undefined).catch((e: unknown) => e);
    expect(isGone(error)).toBe(true);
    const listed = await source.listAll({});
    expect(listed.items.map((o) => o.metadata.name)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(listed.resourceVersion).toBe(String(store.currentRv()));
  });
});
