import fc from 'fast-check';
import { Registry } from 'prom-client';
import { InformerFactory } from '../src/cache/informer-factory.js';
import { isNotFound } from '../src/client/api-error.js';
import { ResourceClient } from '../src/client/resource-client.js';
import { CONFIG_MAPS } from '../src/client/resource-kind.js';
import { KubeTransport } from '../src/client/transport.js';
import type { KubeObject } from '#kube-core';
import { CuttableProxy, eventually, startTestServer, withNamespace, type TestServer } from './harness.js';

const HISTORY_WINDOW = 20;
let server: TestServer;
let ns: { name: string; remove(): Promise<void> };
let transport: KubeTransport;
let configMaps: ResourceClient;

beforeAll(async () => {
  server = await startTestServer({ historyWindow: HISTORY_WINDOW });
  ns = await withNamespace(server.kubeConfig, 'rt-informer');
  transport = new KubeTransport(server.kubeConfig, { qps: 500, burst: 500, registry: new Registry() });
  configMaps = new ResourceClient(transport, CONFIG_MAPS);
}, 60_000);

afterAll(async () => {
  await ns?.remove();
  transport?.close();
  await server?.stop();
});

const cm = (name: string, value: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns.name, labels: { suite: 'informer' } },
  data: { value },
});

type Op = { t: 'create' | 'update' | 'delete'; name: string; value: string };
const opsArb = fc.array(
  fc.record({
    t: fc.constantFrom('create' as const, 'update' as const, 'delete' as const),
    name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
    value: fc.string({ maxLength: 8 }),
  }),
  { minLength: 10, maxLength: 40 },
);

/** Applies an op to the server, tolerating the 404/409 a random sequence naturally produces. */
async function apply(prefix: string, op: Op): Promise<void> {
  const name = `${prefix}-${op.name}`;
  try {
    if (op.t === 'create') await configMaps.create(cm(name, op.value));
    else if (op.t === 'update') {
      const current = await configMaps.get(ns.name, name);
      await configMaps.update({ ...current, data: { value: op.value } });
    } else await configMaps.delete(ns.name, name);
  } catch (err) {
    if (!isNotFound(err) && !(err as { code?: number }).code?.toString().startsWith('409')) throw err;
  }
}

async function serverState(prefix: string): Promise<Map<string, string>> {
  const { items } = await configMaps.listAll({ namespace: ns.name, pageSize: 3 });
  return new Map(
    items
      .filter((o) => o.metadata!.name!.startsWith(`${prefix}-`))
      .map((o) => [o.metadata!.name!, (o.data as { value: string }).value]),
  );
}

function cacheState(factory: InformerFactory, prefix: string): Map<string, string> {
  const informer = factory.informerFor(CONFIG_MAPS);
  return new Map(
    informer.indexer
      .byIndex('namespace', ns.name)
      .filter((o) => o.metadata!.name!.startsWith(`${prefix}-`))
      .map((o) => [o.metadata!.name!, (o.data as { value: string }).value]),
  );
}

async function converged(factory: InformerFactory, prefix: string): Promise<void> {
  let last = '';
  await eventually(async () => {
    const want = JSON.stringify([...(await serverState(prefix))].sort());
    const have = JSON.stringify([...cacheState(factory, prefix)].sort());
    last = `server ${want} cache ${have}`;
    return want === have;
  }, 'cache to equal the server').catch((err: Error) => {
    throw new Error(`${err.message}: ${last}`);
  });
}

describe(`informer against a real API server (${process.env.RUNTIME_KUBECONFIG ? 'external' : 'embedded'})`, () => {
  it('cache equals the server after random creates, updates and deletes', async () => {
    const factory = new InformerFactory(transport, { namespace: ns.name });
    const informer = factory.informerFor(CONFIG_MAPS);
    factory.start();
    await factory.waitForCacheSync(20_000);
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(opsArb, async (ops) => {
          const prefix = `r${run++}`;
          for (const op of ops) await apply(prefix, op);
          await converged(factory, prefix);
        }),
        { numRuns: 5 },
      );
      // Objects are stored without managedFields and frozen.
      const any = informer.indexer.list()[0];
      expect(any?.metadata?.managedFields).toBeUndefined();
      expect(Object.isFrozen(any)).toBe(true);
    } finally {
      await factory.stop();
    }
  }, 120_000);

  it('converges with no lost deletes when the watch is cut at random points and 410 Gone forces a re-list', async () => {
    const proxy = new CuttableProxy(new URL(server.kubeConfig.getCurrentCluster()!.server));
    const port = await proxy.start();
    const viaProxy = new KubeTransport(proxy.kubeConfigVia(server.kubeConfig, port), {
      qps: 500,
      burst: 500,
      registry: new Registry(),
    });
    const factory = new InformerFactory(viaProxy, {
      namespace: ns.name,
      backoffInitialMs: 50,
      backoffMaxMs: 500,
    });
    const informer = factory.informerFor(CONFIG_MAPS);
    const deleted = new Set<string>();
    informer.addEventHandler({ onDelete: (obj) => deleted.add(obj.metadata!.name!) });
    const prefix = 'cut';
    for (const n of ['k1', 'k2', 'k3', 'k4', 'k5', 'k6'])
      await apply(prefix, { t: 'create', name: n, value: 'v0' });
    factory.start();
    try {
      await factory.waitForCacheSync(20_000);
      await converged(factory, prefix);
      const expectedDeletes = new Set<string>();
      for (let round = 0; round < 4; round++) {
        // Cut and keep the server unreachable while more changes than the history window happen.
        proxy.paused = true;
        proxy.cut();
        const victim = `k${round + 1}`;
        await apply(prefix, { t: 'delete', name: victim, value: '' });
        expectedDeletes.add(`${prefix}-${victim}`);
        for (let i = 0; i < HISTORY_WINDOW + 5; i++)
          await apply(prefix, { t: 'update', name: 'k6', value: `r${round}-${i}` });
        await apply(prefix, { t: 'create', name: `n${round}`, value: 'new' });
        proxy.paused = false;
        await converged(factory, prefix);
        // And a cut at a random moment while events flow.
        const writes = (async () => {
          for (let i = 0; i < 10; i++)
            await apply(prefix, { t: 'update', name: 'k6', value: `flow${round}-${i}` });
        })();
        await new Promise((r) => setTimeout(r, Math.random() * 100));
        proxy.cut();
        await writes;
        await converged(factory, prefix);
      }
      for (const name of expectedDeletes) expect(deleted).toContain(name);
      const stats = informer.stats();
      expect(stats.watches).toBeGreaterThan(4); // every cut was followed by a re-watch
      if (server.flavour === 'embedded') {
        // The embedded server keeps only HISTORY_WINDOW events: resuming after the outage must hit 410 and re-list.
        expect(stats.relistsOnGone).toBeGreaterThan(0);
        expect(stats.lists).toBeGreaterThan(1);
      }
    } finally {
      await factory.stop();
      viaProxy.close();
      await proxy.stop();
    }
  }, 120_000);
});
