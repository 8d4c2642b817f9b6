import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { registerController, startServer, type RunningServer } from '../server.js';
import { workloadSimulator } from './index.js';
import { eventually } from './testing.js';

const ns = 'default';
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('workload simulator lifecycle', () => {
  let dir: string;
  let server: RunningServer;
  let core: k8s.CoreV1Api;
  let apps: k8s.AppsV1Api;
  let batch: k8s.BatchV1Api;
  const logs: Array<Record<string, unknown>> = [];

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
    const sim = workloadSimulator({ readyDelayMs: 800, events: false });
    await registerController(server, sim);
    await core.createNamespacedPod({
      namespace: ns,
      body: { metadata: { name: 'solo' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    });
    const pending = await eventually(async () => {
      const p = await core.readNamespacedPod({ name: 'solo', namespace: ns });
      return p.status?.startTime && p;
    }, 'pod seen by the kubelet');
    expect(pending.status?.phase).toBe('Pending');
    expect(pending.status?.containerStatuses?.[0].state?.waiting?.reason).toBe('ContainerCreating');
    await sim.stop?.();
    await sleep(1000);
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
    await sleep(100);
    expect(
      (await apps.readNamespacedDeployment({ name: 'late', namespace: ns })).status?.replicas,
    ).toBeUndefined();
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
    let offset = 0;
    const clock = () => Date.now() + offset;
    // A simulator of its own with a clock the test can move forward.
    const dir2 = mkdtempSync(join(tmpdir(), 'kube-sim-cron-'));
    const s2 = await startServer({ port: 0, stateDir: dir2 });
    try {
      await registerController(s2, workloadSimulator({ readyDelayMs: 20, now: clock }));
      const b2 = s2.kubeConfig.makeApiClient(k8s.BatchV1Api);
      await b2.createNamespacedCronJob({
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
      offset = 10 * 60_000;
      await b2.patchNamespacedCronJob(
        { name: 'tick', namespace: ns, body: { metadata: { annotations: { touched: '1' } } } },
        MERGE,
      );
      const job = await eventually(
        async () => (await b2.listNamespacedJob({ namespace: ns })).items[0],
        'a job',
      );
      const scheduled = Date.parse(
        job.metadata?.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'] as string,
      );
      expect(scheduled % 300_000).toBe(0);
      expect(job.metadata?.name).toBe(`tick-${scheduled / 60_000}`);
      expect(job.metadata?.labels).toEqual({ app: 'tick' });
      expect(job.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'CronJob',
        name: 'tick',
        controller: true,
      });
      const cj = await eventually(async () => {
        const c = await b2.readNamespacedCronJob({ name: 'tick', namespace: ns });
        return c.status?.lastSuccessfulTime && c;
      }, 'cronjob saw the job complete');
      expect(new Date(cj.status?.lastScheduleTime as Date).getTime()).toBe(scheduled);
      expect(cj.status?.active).toBeUndefined();
    } finally {
      await s2.stop();
      rmSync(dir2, { recursive: true, force: true });
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
