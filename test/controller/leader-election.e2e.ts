import { Registry } from 'prom-client';
import { eventually } from '#kube-core';
import { LEASES, ResourceClient, silentLogger } from '#runtime';
import { startController, type RunningController } from '#controller';
import { ControllerCluster, edit, helloApp } from './harness.js';

/**
 * Two replicas with leader election against the embedded server: one
 * reconciles, the other keeps warm caches and writes nothing; when the
 * leader stops, the standby takes over and converges. client-go's default
 * timings (15/10/2 s): shorter leases were lost to a busy machine's pauses,
 * and a stopped leader releases its Lease, so the takeover is still prompt.
 * Every step waits for state, none for a duration. (The order
 * of expiry and takeover is checked with a FakeClock in
 * libs/runtime/src/manager/leader-election.spec.ts; a leader killed with
 * SIGKILL is in leader-kill.e2e.ts.)
 */
const WRITES = new Set(['create', 'update', 'patch', 'delete']);

let cluster: ControllerCluster;
const replicas: RunningController[] = [];

beforeAll(async () => {
  cluster = await ControllerCluster.start();
}, 120_000);

afterAll(async () => {
  for (const r of replicas) await r.stop();
  await cluster?.stop();
});

/** A replica with its own registry, so its requests are counted apart from the other's. */
async function replica(identity: string): Promise<{ controller: RunningController; registry: Registry }> {
  const registry = new Registry();
  const controller = await startController({
    kubeConfig: cluster.kubeConfig,
    logger: silentLogger,
    registry,
    workers: 4,
    qps: 500,
    burst: 500,
    leaderElection: { identity },
  });
  replicas.push(controller);
  return { controller, registry };
}

/** API writes this replica made, by verb (rest_client_requests_total). */
async function writes(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric('rest_client_requests_total')!.get();
  return metric.values.filter((v) => WRITES.has(String(v.labels.verb))).reduce((sum, v) => sum + v.value, 0);
}

describe('leader election', () => {
  it('one of two replicas reconciles; the standby writes nothing and takes over when the leader stops', async () => {
    const a = await replica('replica-a');
    await eventually(() => a.controller.manager.isLeader(), 'replica-a to lead');
    const b = await replica('replica-b');
    const ns = await cluster.namespace('le');
    await cluster.applyApp(helloApp(ns));
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'hello to run under replica-a');

    expect(b.controller.manager.isLeader()).toBe(false);
    expect(b.controller.manager.currentLeader()).toBe('replica-a');
    expect(await writes(a.registry)).toBeGreaterThan(0);
    expect(await writes(b.registry)).toBe(0);
    const lease = await new ResourceClient(cluster.transport, LEASES).get(
      'oam-system',
      'oam-controller-leader',
    );
    expect(lease.spec).toMatchObject({ holderIdentity: 'replica-a', leaseDurationSeconds: 15 });

    await a.controller.stop();
    await eventually(() => b.controller.manager.isLeader(), 'replica-b to take over');
    await cluster.applyApp(
      edit(helloApp(ns), (s) => {
        s.components[0].properties.image = 'nginx:1.27';
      }),
    );
    const deployment = await eventually(async () => {
      const d = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
      return (d?.spec as any)?.template?.spec?.containers?.[0]?.image === 'nginx:1.27' ? d : undefined;
    }, 'replica-b to roll the change out');
    expect(deployment).toBeDefined();
    expect(await writes(b.registry)).toBeGreaterThan(0);
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'hello to run under replica-b');
  });
});
