import * as k8s from '@kubernetes/client-node';
import type { WatchEvent } from './http.js';
import { createWidgetCrd, deleteWidgetCrd } from './crd-fixture.js';
import { isRealServer, useTarget } from './target.js';

/** Watch: resumable event streams, bookmarks, timeouts, and 410 for history that is gone. */
const HISTORY_WINDOW = 20;
const target = useTarget({ historyWindow: HISTORY_WINDOW });
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('watch');
});

const cms = (query = '') => `/api/v1/namespaces/${ns}/configmaps${query ? `?${query}` : ''}`;
const rvOf = (e: WatchEvent) => BigInt(e.object.metadata.resourceVersion);
const summary = (events: WatchEvent[]) =>
  events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}`.trim());

async function listRv(path: string): Promise<string> {
  return (await target().http.get(path)).json().metadata.resourceVersion;
}

describe('watch', () => {
  it('from a resourceVersion replays later ADDED, MODIFIED, DELETED in order', async () => {
    const http = target().http;
    const from = await listRv(cms());
    await http.post(cms(), { metadata: { name: 'w1', labels: { w: 'replay' } }, data: { v: '1' } });
    await http.patch(`${cms()}/w1`, 'application/merge-patch+json', { data: { v: '2' } });
    await http.delete(`${cms()}/w1`);
    const res = await http.watch(
      cms(`watch=1&resourceVersion=${from}&labelSelector=w%3Dreplay`),
      (ev) => ev.length >= 3,
    );
    expect(res.status).toBe(200);
    expect(summary(res.events)).toEqual(['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    expect(res.events[1].object.data).toEqual({ v: '2' });
    expect(res.events[0].object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    const rvs = res.events.map(rvOf);
    expect(rvs[0]).toBeGreaterThan(BigInt(from));
    expect(rvs[1]).toBeGreaterThan(rvs[0]);
    expect(rvs[2]).toBeGreaterThan(rvs[1]);
  });

  it('delivers live events to an open watch', async () => {
    const http = target().http;
    const from = await listRv(cms());
    let opened: () => void = () => undefined;
    const open = new Promise<void>((r) => (opened = r));
    const watching = http.watch(
      cms(`watch=1&resourceVersion=${from}&labelSelector=w%3Dlive`),
      (ev) => ev.length >= 2,
      10_000,
      opened,
    );
    // The server has answered (the watch is registered) before the changes are made.
    await open;
    await http.post(cms(), { metadata: { name: 'live', labels: { w: 'live' } } });
    await http.delete(`${cms()}/live`);
    expect(summary((await watching).events)).toEqual(['ADDED live', 'DELETED live']);
  });

  it('with a label selector, an object that stops matching is DELETED and one that starts is ADDED', async () => {
    const http = target().http;
    const from = await listRv(cms());
    await http.post(cms(), { metadata: { name: 'sel', labels: { w: 'other' } } });
    await http.patch(`${cms()}/sel`, 'application/merge-patch+json', { metadata: { labels: { w: 'sel' } } });
    await http.patch(`${cms()}/sel`, 'application/merge-patch+json', { data: { x: 'y' } });
    await http.patch(`${cms()}/sel`, 'application/merge-patch+json', { metadata: { labels: { w: 'gone' } } });
    const res = await http.watch(
      cms(`watch=1&resourceVersion=${from}&labelSelector=w%3Dsel`),
      (ev) => ev.length >= 3,
    );
    expect(summary(res.events)).toEqual(['ADDED sel', 'MODIFIED sel', 'DELETED sel']);
  });

  it('without a resourceVersion starts with ADDED for what exists, then a BOOKMARK that ends the initial events', async () => {
    const http = target().http;
    const own = await target().namespace('watch-init');
    await http.post(`/api/v1/namespaces/${own}/secrets`, { metadata: { name: 's1' } });
    await http.post(`/api/v1/namespaces/${own}/secrets`, { metadata: { name: 's2' } });
    const res = await http.watch(`/api/v1/namespaces/${own}/secrets?watch=1&allowWatchBookmarks=true`, (ev) =>
      ev.some((e) => e.type === 'BOOKMARK'),
    );
    const adds = res.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
    expect(adds.sort()).toEqual(['s1', 's2']);
    const bookmark = res.events.find((e) => e.type === 'BOOKMARK')!;
    expect(res.events.indexOf(bookmark)).toBe(2);
    // A bookmark carries only the kind and a resourceVersion (and, here, the end-of-initial-events mark).
    expect(bookmark.object).toEqual({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: {
        resourceVersion: expect.stringMatching(/^\d+$/),
        annotations: { 'k8s.io/initial-events-end': 'true' },
      },
    });
    for (const e of res.events.slice(0, 2))
      expect(BigInt(bookmark.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvOf(e));
  });

  it('timeoutSeconds makes the server close the stream', async () => {
    const started = Date.now();
    const res = await target().http.watch(
      cms(`watch=1&resourceVersion=${await listRv(cms())}&timeoutSeconds=1`),
      () => false,
      8_000,
    );
    expect(res.status).toBe(200);
    expect(res.closedByServer).toBe(true);
    expect(res.events.filter((e) => e.type !== 'BOOKMARK')).toEqual([]);
    // Not before the timeout; and by the server (closedByServer), long before the client's own 8 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('the client library Watch receives typed events', async () => {
    const seen: string[] = [];
    const watch = new k8s.Watch(target().kc);
    const from = await listRv(cms());
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    const req = await watch.watch(
      `/api/v1/namespaces/${ns}/configmaps`,
      { resourceVersion: from, labelSelector: 'w=client' },
      (type, obj: k8s.V1ConfigMap) => {
        seen.push(`${type} ${obj.metadata?.name}`);
        if (seen.length === 2) resolveDone();
      },
      (err) => {
        if (err && seen.length < 2) throw new Error(`watch ended early: ${String(err)}`);
      },
    );
    await target().core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'cw', labels: { w: 'client' } } },
    });
    await target().core.deleteNamespacedConfigMap({ namespace: ns, name: 'cw' });
    await done;
    req.abort();
    expect(seen).toEqual(['ADDED cw', 'DELETED cw']);
  });

  const goneName = isRealServer()
    ? 'a resourceVersion older than the kept history is an ERROR event 410 Expired (real server: resourceVersion 1 on a new CRD, older than its watch cache)'
    : `a resourceVersion older than the kept history is an ERROR event 410 Expired (history forced out by ${HISTORY_WINDOW * 2} writes)`;
  it(goneName, async () => {
    const http = target().http;
    let old = '1';
    let path: string;
    if (isRealServer()) {
      // kube-apiserver answers from its watch cache, which keeps history from the LIST it started
      // with (cacher/watch_cache_history.go). A new CRD's cache starts now, so revision 1 is too
      // old for it; configmaps' cache may have started before revision 1 was written and serve it.
      const crd = await createWidgetCrd(target());
      target().defer(() => deleteWidgetCrd(target(), crd));
      path = `${crd.path(ns)}?watch=1&resourceVersion=${old}`;
    } else {
      old = (await http.post(cms(), { metadata: { name: 'old' } })).json().metadata.resourceVersion;
      for (let i = 0; i < HISTORY_WINDOW * 2; i++) {
        await http.patch(`${cms()}/old`, 'application/merge-patch+json', { data: { i: String(i) } });
      }
      path = cms(`watch=1&resourceVersion=${old}`);
    }
    let res = await http.watch(path, () => false, 5_000);
    // A new CRD's watch cache answers 429 (Retry-After: 1) until it has initialized: retry, as clients do.
    for (let i = 0; res.status === 429 && i < 20; i++) {
      await new Promise((r) => setTimeout(r, 500));
      res = await http.watch(path, () => false, 5_000);
    }
    // Not an HTTP error: a 200 stream with one ERROR event, then the server closes it.
    expect(res.status).toBe(200);
    expect(res.closedByServer).toBe(true);
    expect(res.events).toHaveLength(1);
    expect(res.events[0]).toEqual({
      type: 'ERROR',
      object: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: expect.stringMatching(new RegExp(`^too old resource version: ${old} \\(\\d+\\)$`)),
        reason: 'Expired',
        code: 410,
      },
    });
  });

  if (!isRealServer()) {
    // Forcing etcd compaction is not possible from the test on a real server; on it a list at an
    // exact compacted resourceVersion answers the same (etcd3 store: NewResourceExpired).
    it('a list at an exact resourceVersion older than the kept history is 410 Expired', async () => {
      const http = target().http;
      const old = (await http.post(cms(), { metadata: { name: 'old-list' } })).json().metadata
        .resourceVersion;
      for (let i = 0; i < HISTORY_WINDOW * 2; i++) {
        await http.patch(`${cms()}/old-list`, 'application/merge-patch+json', { data: { i: String(i) } });
      }
      const res = await http.get(cms(`resourceVersion=${old}&resourceVersionMatch=Exact`));
      expect(res.status).toBe(410);
      expect(res.json()).toMatchObject({
        reason: 'Expired',
        code: 410,
        message: 'The resourceVersion for the provided list is too old.',
      });
    });
  }
});

describe('watch from a resourceVersion the server has not reached', () => {
  const future = async (path: string) => BigInt(await listRv(path)) + 1_000_000n;

  it('without initial events: the stream opens and waits for changes past it (nothing until timeoutSeconds)', async () => {
    const res = await target().http.watch(
      cms(`watch=1&resourceVersion=${await future(cms())}&timeoutSeconds=1`),
      () => false,
      8_000,
    );
    expect(res.status).toBe(200);
    expect(res.closedByServer).toBe(true);
    expect(res.events.filter((e) => e.type !== 'BOOKMARK')).toEqual([]);
  });

  it('with sendInitialEvents: a short wait, then one ERROR event, 504 Timeout "Too large resource version"', async () => {
    const rv = await future(cms());
    const res = await target().http.watch(
      cms(
        `watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=30`,
      ),
      () => false,
      20_000,
    );
    // Not an HTTP error: a 200 stream with one ERROR event, then the server closes it.
    expect(res.status).toBe(200);
    expect(res.closedByServer).toBe(true);
    expect(res.events).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: expect.stringMatching(
            new RegExp(`^Timeout: Too large resource version: ${rv}, current: \\d+$`),
          ),
          reason: 'Timeout',
          details: {
            causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
            retryAfterSeconds: 1,
          },
          code: 504,
        },
      },
    ]);
  }, 30_000);
});

describe('watch with sendInitialEvents', () => {
  it('true: the state now, whatever older resourceVersion was asked (no 410), then the end-of-initial-events BOOKMARK', async () => {
    const own = await target().namespace('watch-list');
    const secrets = `/api/v1/namespaces/${own}/secrets`;
    await target().http.post(secrets, { metadata: { name: 's1' } });
    const res = await target().http.watch(
      `${secrets}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=1`,
      (ev) => ev.some((e) => e.type === 'BOOKMARK'),
    );
    expect(summary(res.events)).toEqual(['ADDED s1', 'BOOKMARK']);
    expect(res.events[1].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('false: only changes, from now when no resourceVersion is given', async () => {
    const own = await target().namespace('watch-list');
    const secrets = `/api/v1/namespaces/${own}/secrets`;
    await target().http.post(secrets, { metadata: { name: 'before' } });
    const res = await target().http.watch(
      `${secrets}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&timeoutSeconds=1`,
      () => false,
      8_000,
    );
    expect(res.status).toBe(200);
    expect(res.closedByServer).toBe(true);
    expect(res.events).toEqual([]);
  });

  it('without resourceVersionMatch=NotOlderThan is 422', async () => {
    const res = await target().http.get(cms('watch=1&sendInitialEvents=true&resourceVersion=1'));
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      message:
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      reason: 'Invalid',
      details: {
        causes: [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
            field: 'resourceVersionMatch',
          },
        ],
      },
    });
  });
});
