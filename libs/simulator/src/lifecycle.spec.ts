import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { FakeClock } from '#kube-core';
import { registerController, startServer, type RunningServer } from '#kube-server';
import { workloadSimulator, type WorkloadSimulator } from './index.js';
import { eventually, startSimulatedCluster } from './testing.js';

const ns = 'default';

describe('workload simulator lifecycle', () => {
  let dir: string;
  let server: RunningServer;
  let core: k8s.CoreV1Api;
  let apps: k8s.AppsV1Api;
  let batch: k8s.BatchV1Api;
  const logs: Array<Record<string, unknown>> = [];
  /** The first simulator, stopped by the first test. */
  let stopped: WorkloadSimulator;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-sim-life-'));
    server = await startServer({ port: 0, stateDir: dir, logger: (e) => logs.push(e) });
    core = server.kubeConfig.makeApiClient(k8s.CoreV1Api);
    apps = server.kubeConfig.makeApiClient(k8s.AppsV1Api);
    batch = server.kubeConfig.makeApiClient(k8s.BatchV1Api);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stop() cancels pending work: a pod waiting for its start delay stays Pending', async () => {
    const clock = new FakeClock(Date.now());
    const sim = workloadSimulator({ readyDelayMs: 800, events: false, clock });
    stopped = sim;
    await registerController(server, sim);
    await core.createNamespacedPod({
      namespace: ns,
      body: { metadata: { name: 'solo' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    });
    await sim.idle();
    const pending = await core.readNamespacedPod({ name: 'solo', namespace: ns });
    expect(pending.status?.startTime).toBeDefined();
    expect(pending.status?.phase).toBe('Pending');
    expect(pending.status?.containerStatuses?.[0].state?.waiting?.reason).toBe('ContainerCreating');
    // The kubelet waits for the start delay on the clock: that is the work stop() must cancel.
    expect(clock.nextDelay()).toBe(800);
    await sim.stop?.();
    expect(clock.pending).toBe(0);
    await clock.advance(10_000);
    await sim.idle();
    expect((await core.readNamespacedPod({ name: 'solo', namespace: ns })).status?.phase).toBe('Pending');
  });

  it('a simulator registered later syncs what already exists (level-triggered start)', async () => {
    await apps.createNamespacedDeployment({
      namespace: ns,
      body: {
        metadata: { name: 'late' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'late' } },
          template: {
            metadata: { labels: { app: 'late' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
    });
    // The stopped simulator does not react (idle() would wait for its queue if it did).
    await stopped.idle();
    expect(stopped.busy).toBe(false);
    expect(
      (await apps.readNamespacedDeployment({ name: 'late', namespace: ns })).status?.replicas,
    ).toBeUndefined();
    expect((await apps.listNamespacedReplicaSet({ namespace: ns })).items).toEqual([]);
    // The end-to-end wiring on the wall clock: a simulator registered now syncs what exists.
    await registerController(server, workloadSimulator({ readyDelayMs: 20 }));
    await eventually(
      async () =>
        (await apps.readNamespacedDeployment({ name: 'late', namespace: ns })).status?.availableReplicas ===
        1,
      'late deployment available',
    );
    // The pod left Pending by the stopped simulator is picked up too.
    await eventually(
      async () => (await core.readNamespacedPod({ name: 'solo', namespace: ns })).status?.phase === 'Running',
      'solo pod running',
    );
  });

  it('CronJobs create Jobs at their scheduled times', async () => {
    // A cluster of its own whose simulator runs on a FakeClock: the test moves time to the schedule.
    const c = await startSimulatedCluster({ readyDelayMs: 20 });
    try {
      const cronJob = await c.batch.createNamespacedCronJob({
        namespace: ns,
        body: {
          metadata: { name: 'tick' },
          spec: {
            schedule: '*/5 * * * *',
            jobTemplate: {
              metadata: { labels: { app: 'tick' } },
              spec: {
                template: {
                  spec: { restartPolicy: 'OnFailure', containers: [{ name: 'c', image: 'busybox' }] },
                },
              },
            },
          },
        },
      });
      await c.settle();
      expect((await c.batch.listNamespacedJob({ namespace: ns })).items).toEqual([]);
      const job = await c.until(
        async () => (await c.batch.listNamespacedJob({ namespace: ns })).items[0],
        'a job',
        10 * 60_000,
      );
      const scheduled = Date.parse(
        job.metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'] as string,
      );
      expect(scheduled % 300_000).toBe(0);
      // The first schedule time after the CronJob was created (*/5: the next 5-minute boundary), and
      // not before it on the clock.
      const created = cronJob.metadata?.creationTimestamp?.getTime() as number;
      expect(scheduled).toBe(Math.floor(created / 300_000) * 300_000 + 300_000);
      expect(c.clock.now()).toBeGreaterThanOrEqual(scheduled);
      expect(job.metadata?.name).toBe(`tick-${scheduled / 60_000}`);
      expect(job.metadata?.labels).toEqual({ app: 'tick' });
      expect(job.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'CronJob',
        name: 'tick',
        controller: true,
      });
      const cj = await c.until(async () => {
        const x = await c.batch.readNamespacedCronJob({ name: 'tick', namespace: ns });
        return x.status?.lastSuccessfulTime && x;
      }, 'cronjob saw the job complete');
      expect(new Date(cj.status?.lastScheduleTime as Date).getTime()).toBe(scheduled);
      expect(cj.status?.active).toBeUndefined();
      expect((await c.batch.listNamespacedJob({ namespace: ns })).items).toHaveLength(1);
    } finally {
      await c.stop();
    }
  });

  it('deleting a Job removes its pods; namespaces and unrelated objects are left alone', async () => {
    await batch.createNamespacedJob({
      namespace: ns,
      body: {
        metadata: { name: 'once' },
        spec: {
          template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } },
        },
      },
    });
    await eventually(
      async () => (await batch.readNamespacedJob({ name: 'once', namespace: ns })).status?.succeeded === 1,
      'job succeeded',
    );
    await batch.deleteNamespacedJob({ name: 'once', namespace: ns, propagationPolicy: 'Background' });
    await eventually(
      async () =>
        (await core.listNamespacedPod({ namespace: ns, labelSelector: 'batch.kubernetes.io/job-name=once' }))
          .items.length === 0,
      'job pods gone',
    );
    expect(logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});
