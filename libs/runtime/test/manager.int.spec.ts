import { Registry } from 'prom-client';
import { ResourceClient } from '../src/client/resource-client.js';
import { CONFIG_MAPS, EVENTS, LEASES } from '../src/client/resource-kind.js';
import { KubeTransport } from '../src/client/transport.js';
import { silentLogger } from '../src/log/logger.js';
import { Manager, type ManagerOptions } from '../src/manager/manager.js';
import type { KubeObject } from '#kube-core';
import { CuttableProxy, eventually, startTestServer, withNamespace, type TestServer } from './harness.js';

let server: TestServer;
let ns: { name: string; remove(): Promise<void> };
let transport: KubeTransport;
let configMaps: ResourceClient;

beforeAll(async () => {
  server = await startTestServer();
  ns = await withNamespace(server.kubeConfig, 'rt-manager');
  transport = new KubeTransport(server.kubeConfig, { qps: 200, burst: 200, registry: new Registry() });
  configMaps = new ResourceClient(transport, CONFIG_MAPS);
}, 60_000);

afterAll(async () => {
  await ns?.remove();
  transport?.close();
  await server?.stop();
});

const cm = (name: string, labels: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns.name, labels },
  data: { v: '1' },
});

function manager(extra: Partial<ManagerOptions> = {}): Manager {
  return new Manager({
    kubeConfig: server.kubeConfig,
    namespace: ns.name,
    logger: silentLogger,
    registry: new Registry(),
    ...extra,
  });
}

// Short timings so failover is observable in a test; production uses client-go's 15 s / 10 s / 2 s.
const LEASE = { leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 300 };

describe(`manager against a real API server (${process.env.RUNTIME_KUBECONFIG ? 'external' : 'embedded'})`, () => {
  it('reconciles watched objects only once caches synced, serves health/readiness/metrics, and aggregates repeated events', async () => {
    const seen: string[] = [];
    const syncedWhenReconciling: boolean[] = [];
    // Exists before the manager starts: its request comes from the initial list.
    for (let i = 0; i < 20; i++) await configMaps.create(cm(`basic-pre-${i}`, { suite: 'basic' }));
    const mgr = manager({ health: { port: 0 } });
    mgr
      .controller('cm-basic')
      .for(CONFIG_MAPS)
      .withEventFilter({
        create: (o) => o.metadata?.labels?.suite === 'basic',
        update: (_o, n) => n.metadata?.labels?.suite === 'basic',
        delete: () => false,
      })
      .build({
        reconcile: async (r) => {
          syncedWhenReconciling.push(mgr.informers.hasSynced());
          seen.push(`${r.namespace}/${r.name}`);
        },
      });
    await mgr.start();
    try {
      await configMaps.create(cm('basic-1', { suite: 'basic' }));
      await eventually(() => seen.includes(`${ns.name}/basic-1`), 'reconcile of basic-1');
      expect(seen).toContain(`${ns.name}/basic-pre-19`);
      expect(syncedWhenReconciling.every(Boolean)).toBe(true); // workers started after the caches synced

      const base = `http://127.0.0.1:${mgr.healthServerPort()}`;
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ caches: 'synced', leader: 'disabled' });
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toMatch(
        /controller_runtime_reconcile_total\{controller="cm-basic",result="success"\} [1-9]/,
      );
      expect(metrics).toMatch(/rest_client_requests_total\{verb="list",code="200"\}/);
      expect(metrics).toMatch(/workqueue_adds_total\{name="cm-basic"\}/);

      // The cached client reads what the informer holds.
      const cached = await mgr.client.get(CONFIG_MAPS, ns.name, 'basic-1');
      expect(cached?.data).toEqual({ v: '1' });

      const recorder = mgr.eventRecorder('runtime-test');
      const subject = (await configMaps.get(ns.name, 'basic-1')) as KubeObject;
      for (let i = 0; i < 3; i++) recorder.event(subject, 'Normal', 'Synced', 'configmap synced');
      recorder.event(subject, 'Warning', 'Failed', 'something else');
      await recorder.flush();
      const events = await new ResourceClient(transport, EVENTS).listAll({ namespace: ns.name });
      const synced = events.items.filter(
        (e) => e.reason === 'Synced' && (e.involvedObject as { name: string }).name === 'basic-1',
      );
      expect(synced).toHaveLength(1);
      expect(synced[0].count).toBe(3);
      expect(events.items.filter((e) => e.reason === 'Failed')).toHaveLength(1);
    } finally {
      await mgr.stop();
    }
    expect(await mgr.done).toBe('stopped');
  }, 60_000);

  it('SIGTERM stops in order: the in-flight reconcile finishes and its write lands before caches and transport stop', async () => {
    const log: string[] = [];
    // The reconcile holds until the test lets it go, so SIGTERM surely arrives while it is in flight.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const mgr = manager({ handleSignals: true, health: { port: 0 } });
    mgr
      .controller('cm-drain')
      .for(CONFIG_MAPS)
      .withEventFilter({
        create: (o) => o.metadata?.name === 'drain-1',
        update: () => false,
        delete: () => false,
      })
      .build({
        reconcile: async (r, { signal }) => {
          log.push('reconcile started');
          await held;
          // Still able to read the cache and write to the server: nothing under it was stopped yet.
          const cached = await mgr.client.get(CONFIG_MAPS, r.namespace, r.name);
          await mgr.client.patch(
            CONFIG_MAPS,
            r.namespace,
            r.name,
            { metadata: { annotations: { drained: String(cached !== undefined) } } },
            { type: 'merge' },
          );
          log.push(signal.aborted ? 'reconcile aborted' : 'reconcile finished');
        },
      });
    const before = new Set(process.listeners('SIGTERM'));
    await mgr.start();
    const onSigterm = process.listeners('SIGTERM').filter((l) => !before.has(l));
    expect(onSigterm).toHaveLength(1);
    const health = `http://127.0.0.1:${mgr.healthServerPort()}/healthz`;
    await configMaps.create(cm('drain-1'));
    await eventually(() => log.includes('reconcile started'), 'reconcile to start');
    (onSigterm[0] as (signal: string) => void)('SIGTERM'); // what process.once('SIGTERM') would call
    // Stopping has begun (no longer healthy), and waits for the reconcile: the manager is not done.
    await eventually(async () => (await fetch(health)).status === 503, 'the manager to report stopping');
    let done = false;
    void mgr.done.then(() => (done = true));
    expect(done).toBe(false);
    expect(log).toEqual(['reconcile started']);
    letGo();
    expect(await mgr.done).toBe('stopped');
    expect(log).toEqual(['reconcile started', 'reconcile finished']);
    const obj = await configMaps.get(ns.name, 'drain-1');
    expect(obj.metadata?.annotations).toEqual({ drained: 'true' });
    await expect(fetch(health)).rejects.toThrow(); // the health server is closed last
    expect(process.listeners('SIGTERM').filter((l) => !before.has(l))).toEqual([]);
  }, 30_000);

  it('with leader election only the leader reconciles, and a standby takes over once the lease expires', async () => {
    const leaseName = `rt-lease-${Date.now().toString(36)}`;
    const proxy = new CuttableProxy(new URL(server.kubeConfig.getCurrentCluster()!.server));
    const port = await proxy.start();
    const counts = { a: 0, b: 0 };
    const make = (id: 'a' | 'b', kubeConfig = server.kubeConfig) => {
      const mgr = manager({
        kubeConfig,
        leaderElection: { namespace: ns.name, name: leaseName, identity: id, ...LEASE },
      });
      mgr
        .controller(`le-${id}`)
        .for(CONFIG_MAPS)
        .withEventFilter({
          create: (o) => o.metadata?.labels?.suite === 'le',
          update: () => false,
          delete: () => false,
        })
        .build({ reconcile: async () => void counts[id]++ });
      return mgr;
    };
    // Replica a reaches the server through a proxy we can cut: a "killed" replica that cannot release its lease.
    const a = make('a', proxy.kubeConfigVia(server.kubeConfig, port));
    const b = make('b');
    try {
      await a.start();
      await eventually(() => a.isLeader(), 'a to lead');
      await b.start();
      for (let i = 0; i < 5; i++) await configMaps.create(cm(`le-${i}`, { suite: 'le' }));
      await eventually(() => counts.a === 5, 'leader a to reconcile all five');
      // b has read the Lease and found a holding it: from then on it is a standby that reconciles nothing.
      await eventually(() => b.currentLeader() === 'a', 'b to see a holding the lease');
      expect(counts.b).toBe(0);
      expect(b.isLeader()).toBe(false);

      // a, cut off, gives up at its renew deadline; b waits the lease out, then takes over.
      // (How soon, in lease terms, is a unit test on a fake clock: leader-election.spec.ts.)
      proxy.paused = true;
      proxy.cut();
      expect(await a.done).toBe('lost leadership');
      await eventually(() => b.isLeader(), 'b to take over');
      expect(b.currentLeader()).toBe('b');
      await eventually(() => counts.b === 5, 'new leader b to reconcile everything from its cache');

      const lease = await new ResourceClient(transport, LEASES).get(ns.name, leaseName);
      expect((lease.spec as { holderIdentity: string; leaseTransitions: number }).holderIdentity).toBe('b');
      expect((lease.spec as { leaseTransitions: number }).leaseTransitions).toBe(1);

      // A clean stop releases the lease: it is left without a holder.
      await b.stop();
      const released = await new ResourceClient(transport, LEASES).get(ns.name, leaseName);
      expect((released.spec as { holderIdentity?: string }).holderIdentity).toBeUndefined();
    } finally {
      await a.stop();
      await b.stop();
      await proxy.stop();
    }
  }, 60_000);
});
