import { eventually, type KubeObject } from '#kube-core';
import { LEADER_LEASE, CONTROLLER_NAMESPACE } from '#api';
import { LEASES, ResourceClient } from '#runtime';
import type { RunningController } from '#controller';
import { RUNAWAYS } from '../../bench/containment/runaways.js';
import { ControllerCluster, condition, helloApp } from './harness.js';

/**
 * A hostile tenant's templates against the controller under leader election, one kind of
 * runaway at a time (bench/containment/runaways.ts: nested Handlebars loops, CUE that burns
 * CPU, CUE that eats memory, a built-in trait given 20,000 volumes, two bombs at once from one
 * namespace). For each: while the pool still reports it running, /healthz answers; its app
 * reports the limit in Rendered and in a RenderFailed Event; a healthy app in another
 * namespace converges. A worker over its memory cap is replaced by a new thread. The Lease
 * never changes hands. Outcomes only: no durations, no RSS (those are `npm run bench containment`).
 */
const CPU_LIMIT_MS = 2000;
const MEMORY_LIMIT = 256 * 2 ** 20;

let cluster: ControllerCluster;
let controller: RunningController;
let leaseAtStart: { holderIdentity?: string; leaseTransitions?: number };

const lease = async () =>
  (await new ResourceClient(cluster.transport, LEASES).get(CONTROLLER_NAMESPACE, LEADER_LEASE)).spec as {
    holderIdentity?: string;
    leaseTransitions?: number;
  };

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  controller = await cluster.startController({
    leaderElection: { identity: 'contained' },
    metricsPort: 0,
    evalCpuLimitMs: CPU_LIMIT_MS,
    evalMemoryLimitBytes: MEMORY_LIMIT,
  });
  await eventually(() => controller.manager.isLeader(), 'the controller to lead');
  leaseAtStart = await lease();
}, 120_000);
afterAll(() => cluster?.stop());

async function healthz(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${controller.manager.healthServerPort()}/healthz`);
  return res.status;
}

describe.each(RUNAWAYS.map((r) => [r.kind, r] as const))('a runaway: %s', (_, runaway) => {
  it('is stopped at its limit and reported, while the controller answers and other namespaces converge', async () => {
    const ns = await cluster.namespace(runaway.kind.slice(0, 20));
    for (const d of runaway.definitions(ns)) await cluster.applyObject(d);
    const replacedBefore = controller.evaluations()[runaway.engine].replaced;
    const apps = runaway.apps(ns);
    for (const app of apps) await cluster.applyApp(app);

    // While the runaway holds a worker, the event loop serves /healthz. A memory bomb may be
    // replaced before it is seen running: then its new thread is what shows.
    const seen = await eventually(() => {
      const pool = controller.evaluations()[runaway.engine];
      return pool.busy > 0 ? 'running' : pool.replaced > replacedBefore ? 'replaced' : undefined;
    }, `${runaway.kind} to occupy a worker`);
    if (seen === 'running') {
      expect(await healthz()).toBe(200);
      if (runaway.limit === 'cpu') expect(controller.evaluations()[runaway.engine].busy).toBeGreaterThan(0);
    } else expect(runaway.limit).toBe('memory');

    // A healthy app in another namespace converges meanwhile.
    const calm = await cluster.namespace('calm');
    await cluster.applyApp(helloApp(calm));
    await cluster.appStatus(calm, 'hello', (s) => s.status === 'running', 'hello to run beside the runaway');

    // Every app of the runaway reports its limit, naming the component and the definition.
    const limit = runaway.limit === 'cpu' ? `cpu time limit ${CPU_LIMIT_MS / 1000}s exceeded` : 'limit';
    for (const app of apps) {
      const name = app.metadata!.name!;
      const failed = await cluster.appStatus(
        ns,
        name,
        (s) => /limit \S+ exceeded/.test(condition(s, 'Rendered')?.message ?? ''),
        `${name} to report its limit`,
      );
      const message = condition(failed.status as Record<string, any>, 'Rendered')!.message!;
      expect(message).toContain(`components[0] "${name}"`);
      expect(message).toContain(limit);
      if (runaway.limit === 'memory')
        expect(message).toMatch(/(memory limit 256Mi|cpu time limit 2s) exceeded/);
    }
    const events = await cluster.resource({ apiVersion: 'v1', kind: 'Event' });
    await eventually(async () => {
      const list = await events.list({ namespace: ns });
      return list.items.find(
        (e: KubeObject & { reason?: string; message?: string }) =>
          e.reason === 'RenderFailed' && /limit \S+ exceeded/.test(e.message ?? ''),
      );
    }, 'a RenderFailed Event naming the limit');

    // A worker over a limit is replaced by a new thread, and the pool still serves.
    await eventually(
      () => controller.evaluations()[runaway.engine].replaced > replacedBefore,
      `${runaway.engine} worker to be replaced`,
    );
    expect(await healthz()).toBe(200);
  });
});

describe('leadership', () => {
  it('never changed hands while the runaways ran', async () => {
    expect(controller.manager.isLeader()).toBe(true);
    const now = await lease();
    expect(now.holderIdentity).toBe(leaseAtStart.holderIdentity);
    expect(now.leaseTransitions ?? 0).toBe(leaseAtStart.leaseTransitions ?? 0);
  });
});
