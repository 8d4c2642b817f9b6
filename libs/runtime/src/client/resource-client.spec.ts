import { Registry } from 'prom-client';
import { sendJson, startHttpStub, type HttpStub } from '../../test/http-stub.js';
import { ResourceClient } from './resource-client.js';
import { CONFIG_MAPS } from './resource-kind.js';
import { KubeTransport } from './transport.js';

let stub: HttpStub;
let answer: Parameters<typeof startHttpStub>[0];
let transport: KubeTransport;
let client: ResourceClient;

beforeAll(async () => {
  stub = await startHttpStub((req, res, body) => answer(req, res, body));
  transport = new KubeTransport(stub.kubeConfig, { registry: new Registry(), qps: 1000, burst: 1000 });
  client = new ResourceClient(transport, CONFIG_MAPS);
});
afterAll(async () => {
  transport.close();
  await stub.close();
});
beforeEach(() => {
  stub.requests.length = 0;
});

const echo: Parameters<typeof startHttpStub>[0] = (_req, res, body) =>
  sendJson(res, 200, body ? JSON.parse(body) : {});

describe('ResourceClient', () => {
  it('lists every page through limit/continue and restores apiVersion/kind on items', async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ metadata: { name: `cm-${i}`, namespace: 'ns' } }));
    answer = (req, res) => {
      const url = new URL(req.url!, 'http://x');
      const start = Number(url.searchParams.get('continue') ?? 0);
      const limit = Number(url.searchParams.get('limit'));
      const next = start + limit < all.length ? String(start + limit) : undefined;
      sendJson(res, 200, {
        kind: 'ConfigMapList',
        metadata: { resourceVersion: '42', continue: next },
        items: all.slice(start, start + limit),
      });
    };
    const { items, resourceVersion } = await client.listAll({
      namespace: 'ns',
      pageSize: 2,
      labelSelector: 'a=b',
    });
    expect(items.map((o) => o.metadata!.name)).toEqual(['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']);
    expect(items.every((o) => o.apiVersion === 'v1' && o.kind === 'ConfigMap')).toBe(true);
    expect(resourceVersion).toBe('42');
    expect(stub.requests.map((r) => r.url.pathname + r.url.search)).toEqual([
      '/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db&limit=2',
      '/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db&limit=2&continue=2',
      '/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db&limit=2&continue=4',
    ]);
  });

  it('create, update (compare-and-swap on resourceVersion), status update, merge patch and delete hit the right URLs', async () => {
    answer = echo;
    const obj = { metadata: { name: 'a', namespace: 'ns', resourceVersion: '7' }, data: { k: 'v' } };
    await client.create(obj, { fieldManager: 'me', dryRun: true });
    await client.update(obj);
    await client.update(obj, { subresource: 'status' });
    await client.patch('ns', 'a', { data: { k: 'w' } }, { type: 'merge' });
    await client.delete('ns', 'a', { propagationPolicy: 'Foreground', preconditions: { uid: 'u1' } });
    const seen = stub.requests.map((r) => `${r.method} ${r.url.pathname}${r.url.search}`);
    expect(seen).toEqual([
      'POST /api/v1/namespaces/ns/configmaps?fieldManager=me&dryRun=All',
      'PUT /api/v1/namespaces/ns/configmaps/a',
      'PUT /api/v1/namespaces/ns/configmaps/a/status',
      'PATCH /api/v1/namespaces/ns/configmaps/a',
      'DELETE /api/v1/namespaces/ns/configmaps/a',
    ]);
    expect(JSON.parse(stub.requests[1].body)).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { resourceVersion: '7' },
    });
    expect(stub.requests[3].headers['content-type']).toBe('application/merge-patch+json');
    expect(JSON.parse(stub.requests[4].body)).toEqual({
      apiVersion: 'v1',
      kind: 'DeleteOptions',
      propagationPolicy: 'Foreground',
      preconditions: { uid: 'u1' },
    });
  });

  it('applies server-side with a field manager (force optional) and refuses to apply without one', async () => {
    answer = echo;
    await client.apply(
      { metadata: { name: 'a', namespace: 'ns' }, data: { k: 'v' } },
      { fieldManager: 'oam', force: true },
    );
    const req = stub.requests[0];
    expect(`${req.method} ${req.url.pathname}${req.url.search}`).toBe(
      'PATCH /api/v1/namespaces/ns/configmaps/a?fieldManager=oam&force=true',
    );
    expect(req.headers['content-type']).toBe('application/apply-patch+yaml');
    expect(JSON.parse(req.body)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'a', namespace: 'ns' },
      data: { k: 'v' },
    });
    expect(() => client.patch('ns', 'a', {}, { type: 'apply' })).toThrow(/needs a fieldManager/);
  });

  it('watches with bookmarks from a resourceVersion and parses events', async () => {
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(
        `${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a', namespace: 'ns', resourceVersion: '8' } } })}\n`,
      );
      res.end(
        `${JSON.stringify({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '9' } } })}\n`,
      );
    };
    const events: Array<{ type: string; object: { kind?: string } }> = [];
    const end = await client.watch({ namespace: 'ns', resourceVersion: '7', timeoutSeconds: 300 }, (e) =>
      events.push(e),
    );
    expect(end).toEqual({ reason: 'closed' });
    expect(stub.requests[0].url.search).toBe(
      '?watch=1&resourceVersion=7&allowWatchBookmarks=true&timeoutSeconds=300',
    );
    expect(events.map((e) => `${e.type}:${e.object.kind}`)).toEqual([
      'ADDED:ConfigMap',
      'BOOKMARK:ConfigMap',
    ]);
  });
});
