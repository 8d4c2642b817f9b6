import { Registry } from 'prom-client';
import { isConflict, isNotFound } from '../src/client/api-error.js';
import { Client } from '../src/client/cached-client.js';
import { CONFIG_MAPS, type Model } from '../src/client/resource-kind.js';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { KubeTransport } from '../src/client/transport.js';
import { InformerFactory } from '../src/cache/informer-factory.js';
import { deepCopy, type KubeObject } from '#kube-core';
import { eventually, startTestServer, withNamespace, type TestServer } from './harness.js';

let server: TestServer;
let ns: { name: string; remove(): Promise<void> };
let transport: KubeTransport;
let informers: InformerFactory;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  ns = await withNamespace(server.kubeConfig, 'rt-client');
  transport = new KubeTransport(server.kubeConfig, { qps: 200, burst: 200, registry: new Registry() });
  informers = new InformerFactory(transport, { namespace: ns.name });
  informers.start();
  client = new Client(informers, 'runtime-test');
}, 60_000);

afterAll(async () => {
  await informers?.stop();
  await ns?.remove();
  transport?.close();
  await server?.stop();
});

/** The error a promise rejects with (or undefined if it resolves). */
const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (err: unknown) => err,
  );
const data = (o: KubeObject | undefined) => o?.data as Record<string, string> | undefined;

describe(`client against a real API server (${process.env.RUNTIME_KUBECONFIG ? 'external' : 'embedded'})`, () => {
  it('writes go to the server (create, update, patch, delete); reads come from the cache, frozen', async () => {
    const created = await client.create<KubeObject>(CONFIG_MAPS, {
      metadata: { name: 'crud', namespace: ns.name },
      data: { step: 'created' },
    });
    expect(created.metadata?.uid).toBeTruthy();
    await eventually(
      async () => data(await client.get(CONFIG_MAPS, ns.name, 'crud'))?.step === 'created',
      'the cache to see the create',
    );

    const cached = (await client.get(CONFIG_MAPS, ns.name, 'crud'))!;
    expect(() => ((cached.data as Record<string, string>).step = 'mutated')).toThrow(TypeError);
    const edited = deepCopy(cached);
    (edited.data as Record<string, string>).step = 'updated';
    await client.update(CONFIG_MAPS, edited);
    // The update carried the cached resourceVersion: writing the same stale copy again is a conflict.
    expect(isConflict(await failure(client.update(CONFIG_MAPS, edited)))).toBe(true);

    await client.patch(CONFIG_MAPS, ns.name, 'crud', { data: { step: 'patched' } }, { type: 'merge' });
    await eventually(
      async () => data(await client.get(CONFIG_MAPS, ns.name, 'crud'))?.step === 'patched',
      'the cache to see the patch',
    );
    expect((await client.list(CONFIG_MAPS, { namespace: ns.name })).map((o) => o.metadata?.name)).toContain(
      'crud',
    );

    await client.delete(CONFIG_MAPS, ns.name, 'crud');
    await eventually(
      async () => (await client.get(CONFIG_MAPS, ns.name, 'crud')) === undefined,
      'the cache to see the delete',
    );
    expect(isNotFound(await failure(client.resource(CONFIG_MAPS).get(ns.name, 'crud')))).toBe(true);
  }, 30_000);

  it('applies server-side under its field manager; another manager must force to take a field over', async () => {
    const desired: Model<IConfigMap> = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'ssa', namespace: ns.name },
      data: { owned: 'one' },
    };
    await client.apply(CONFIG_MAPS, desired);
    const applied = await client.apply(CONFIG_MAPS, { ...desired, data: { owned: 'two' } });
    expect(data(applied)).toEqual({ owned: 'two' });
    const managers = (applied.metadata?.managedFields as Array<{ manager: string; operation: string }>).map(
      (m) => `${m.manager}/${m.operation}`,
    );
    expect(managers).toContain('runtime-test/Apply');

    const rival = { ...desired, data: { owned: 'rival' } };
    expect(isConflict(await failure(client.apply(CONFIG_MAPS, rival, { fieldManager: 'rival' })))).toBe(true);
    const forced = await client.apply(CONFIG_MAPS, rival, { fieldManager: 'rival', force: true });
    expect(data(forced)).toEqual({ owned: 'rival' });
    await client.delete(CONFIG_MAPS, ns.name, 'ssa');
  }, 30_000);

  it('counts requests per verb', async () => {
    const text = await transport.registry.metrics();
    for (const verb of ['create', 'update', 'patch', 'delete', 'list', 'watch', 'get'])
      expect(text).toMatch(new RegExp(`rest_client_requests_total\\{verb="${verb}",code="\\d+"\\}`));
  });
});
