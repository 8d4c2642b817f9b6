import { expectApiError, useTarget } from './target.js';

/** Create, read, update, delete: the object metadata contract every client relies on. */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('crud');
});

const cmPath = (name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
const rv = (obj: any) => BigInt(obj.metadata.resourceVersion);

function deployment(name: string, image = 'nginx:1'): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } },
    },
  };
}

describe('create', () => {
  it('fills uid, creationTimestamp and resourceVersion, and names from generateName', async () => {
    const before = Date.now();
    const created = await target().core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { generateName: 'gen-' }, data: { k: 'v' } },
    });
    const meta = created.metadata!;
    expect(meta.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(meta.generateName).toBe('gen-');
    expect(meta.namespace).toBe(ns);
    expect(meta.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(meta.resourceVersion).toMatch(/^\d+$/);
    // The client turns creationTimestamp into a Date; the wire format is RFC 3339 in seconds.
    const raw = (await target().http.get(cmPath(meta.name))).json();
    expect(raw.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The time of the request, by the server's clock: allow for truncation to seconds and for skew
    // between this machine's clock and a real cluster's (a minute either way).
    const skew = 60_000;
    const createdAt = Date.parse(raw.metadata.creationTimestamp);
    expect(createdAt).toBeGreaterThanOrEqual(before - skew);
    expect(createdAt).toBeLessThanOrEqual(Date.now() + skew);
    expect(raw.data).toEqual({ k: 'v' });
  });

  it('answers 201 with the object and refuses a duplicate name with 409 AlreadyExists', async () => {
    const http = target().http;
    const first = await http.post(cmPath(), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dup' },
    });
    expect(first.status).toBe(201);
    expect(first.json()).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'dup' } });
    const second = await http.post(cmPath(), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dup' },
    });
    expect(second.status).toBe(409);
    expect(second.json()).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'AlreadyExists',
      message: 'configmaps "dup" already exists',
      details: { name: 'dup', kind: 'configmaps' },
      code: 409,
    });
  });

  it('a missing object is 404 NotFound naming the resource', async () => {
    const res = await target().http.get(cmPath('nope'));
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({
      reason: 'NotFound',
      message: 'configmaps "nope" not found',
      details: { name: 'nope', kind: 'configmaps' },
    });
  });

  it('dryRun=All returns the would-be object and stores nothing', async () => {
    const http = target().http;
    const res = await http.post(`${cmPath()}?dryRun=All`, { metadata: { name: 'dry' }, data: { a: '1' } });
    expect(res.status).toBe(201);
    const obj = res.json();
    expect(obj.metadata.name).toBe('dry');
    expect(obj.metadata.uid).toBeDefined();
    expect(obj.metadata.resourceVersion).toBeUndefined();
    expect((await http.get(cmPath('dry'))).status).toBe(404);
  });
});

describe('update', () => {
  it('bumps resourceVersion on every write and keeps uid and creationTimestamp', async () => {
    const core = target().core;
    const a = await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'upd' }, data: { n: '0' } },
    });
    const b = await core.replaceNamespacedConfigMap({
      namespace: ns,
      name: 'upd',
      body: { ...a, data: { n: '1' } },
    });
    expect(rv(b)).toBeGreaterThan(rv(a));
    expect(b.metadata!.uid).toBe(a.metadata!.uid);
    expect(b.metadata!.creationTimestamp).toEqual(a.metadata!.creationTimestamp);
    const other = await core.createNamespacedConfigMap({
      namespace: ns,
      body: { metadata: { name: 'upd-2' } },
    });
    // One counter for the whole store: a write to another object is later still.
    expect(rv(other)).toBeGreaterThan(rv(b));
  });

  it('a stale resourceVersion is 409 Conflict and changes nothing', async () => {
    const http = target().http;
    const created = (await http.post(cmPath(), { metadata: { name: 'stale' }, data: { n: '0' } })).json();
    const fresh = await http.put(cmPath('stale'), { ...created, data: { n: '1' } });
    expect(fresh.status).toBe(200);
    const res = await http.put(cmPath('stale'), { ...created, data: { n: '2' } });
    expect(res.status).toBe(409);
    expect(res.json()).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'stale', kind: 'configmaps' },
    });
    expect((await http.get(cmPath('stale'))).json().data).toEqual({ n: '1' });
  });

  it('without a resourceVersion a configmap update is unconditional', async () => {
    const http = target().http;
    await http.post(cmPath(), { metadata: { name: 'uncond' }, data: { n: '0' } });
    const res = await http.put(cmPath('uncond'), { metadata: { name: 'uncond' }, data: { n: '9' } });
    expect(res.status).toBe(200);
    expect(res.json().data).toEqual({ n: '9' });
  });

  it('a name that differs from the URL is 400 BadRequest', async () => {
    const res = await target().http.put(cmPath('url-name'), { metadata: { name: 'body-name' } });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'BadRequest',
      message: 'the name of the object (body-name) does not match the name on the URL (url-name)',
    });
  });

  it('a namespace in the body that differs from the URL is 400 BadRequest', async () => {
    const res = await target().http.post(cmPath(), { metadata: { name: 'x', namespace: `${ns}-other` } });
    expect(res.status).toBe(400);
    expect(res.json().message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('dryRun=All on update changes nothing', async () => {
    const http = target().http;
    const created = (await http.post(cmPath(), { metadata: { name: 'dry-upd' }, data: { n: '0' } })).json();
    const res = await http.put(`${cmPath('dry-upd')}?dryRun=All`, { ...created, data: { n: '1' } });
    expect(res.status).toBe(200);
    expect(res.json().data).toEqual({ n: '1' });
    const stored = (await http.get(cmPath('dry-upd'))).json();
    expect(stored.data).toEqual({ n: '0' });
    expect(stored.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });
});

describe('generation', () => {
  it('starts at 1 and is bumped by spec changes only', async () => {
    // Merge patches, not updates: controllers (the real ones, or the simulator) write status meanwhile.
    const { apps, http } = target();
    const d = await apps.createNamespacedDeployment({ namespace: ns, body: deployment('gen') });
    expect(d.metadata!.generation).toBe(1);
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/gen`;
    const merge = 'application/merge-patch+json';
    const relabelled = (await http.patch(path, merge, { metadata: { labels: { extra: 'yes' } } })).json();
    expect(relabelled.metadata.generation).toBe(1);
    expect(BigInt(relabelled.metadata.resourceVersion)).toBeGreaterThan(BigInt(d.metadata!.resourceVersion!));
    const changed = (await http.patch(path, merge, { spec: { replicas: 3 } })).json();
    expect(changed.metadata.generation).toBe(2);
    const again = (
      await http.patch(path, merge, { spec: { template: { spec: { terminationGracePeriodSeconds: 5 } } } })
    ).json();
    expect(again.metadata.generation).toBe(3);
  });
});

describe('delete', () => {
  it('deletes a configmap with a Success Status, then 404', async () => {
    const http = target().http;
    const created = (await http.post(cmPath(), { metadata: { name: 'del' } })).json();
    const res = await http.delete(cmPath('del'));
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      kind: 'Status',
      status: 'Success',
      details: { name: 'del', kind: 'configmaps', uid: created.metadata.uid },
    });
    expect((await http.get(cmPath('del'))).status).toBe(404);
    const again = await expectApiError(() =>
      target().core.deleteNamespacedConfigMap({ namespace: ns, name: 'del' }),
    );
    expect(again.code).toBe(404);
  });

  it('dryRun=All on delete keeps the object', async () => {
    const http = target().http;
    await http.post(cmPath(), { metadata: { name: 'dry-del' } });
    expect((await http.delete(`${cmPath('dry-del')}?dryRun=All`)).status).toBe(200);
    expect((await http.get(cmPath('dry-del'))).status).toBe(200);
  });

  it('deletecollection removes what the label selector matches and nothing else', async () => {
    const core = target().core;
    const coll = await target().namespace('coll');
    for (const [name, tier] of [
      ['a', 'x'],
      ['b', 'x'],
      ['c', 'y'],
    ]) {
      await core.createNamespacedConfigMap({
        namespace: coll,
        body: { metadata: { name, labels: { tier } } },
      });
    }
    await core.deleteCollectionNamespacedConfigMap({ namespace: coll, labelSelector: 'tier=x' });
    const left = await core.listNamespacedConfigMap({ namespace: coll, labelSelector: 'tier' });
    expect(left.items.map((i) => i.metadata!.name)).toEqual(['c']);
  });
});
