import * as k8s from '@kubernetes/client-node';
import { eventually, startSimulatedCluster, type SimulatedCluster } from './testing.js';

const ns = 'default';
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

const template = (app: string, image = 'nginx:1.25', extra: Partial<k8s.V1PodSpec> = {}) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'main', image }], ...extra },
});

describe('workload simulator: StatefulSets, DaemonSets, Jobs, HPAs', () => {
  let c: SimulatedCluster;

  beforeAll(async () => {
    c = await startSimulatedCluster({ readyDelayMs: 30, runDurationMs: 30 });
  });
  afterAll(async () => {
    await c.stop();
  });

  const pods = async (app: string) =>
    (await c.core.listNamespacedPod({ namespace: ns, labelSelector: `app=${app}` })).items;

  it('gives a StatefulSet ordered pods <name>-0..n-1, created one after the other', async () => {
    const seen: string[] = [];
    const watch = new k8s.Watch(c.server.kubeConfig);
    const req = await watch.watch(
      `/api/v1/namespaces/${ns}/pods`,
      { labelSelector: 'app=db' },
      (type, obj) => {
        if (type === 'ADDED') seen.push(obj.metadata.name);
      },
      () => undefined,
    );
    await c.apps.createNamespacedStatefulSet({
      namespace: ns,
      body: {
        metadata: { name: 'db' },
        spec: {
          replicas: 3,
          serviceName: 'db',
          selector: { matchLabels: { app: 'db' } },
          template: template('db'),
          volumeClaimTemplates: [
            {
              metadata: { name: 'data' },
              spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
            },
          ],
        },
      },
    });
    const sts = await c.until(async () => {
      const s = await c.apps.readNamespacedStatefulSet({ name: 'db', namespace: ns });
      return s.status?.readyReplicas === 3 && s.status.availableReplicas === 3 && s;
    }, 'statefulset ready');
    // The pods were created before the StatefulSet was ready; the watch delivers them over HTTP.
    await eventually(() => seen.length >= 3, 'the watch saw three pods');
    req.abort();
    expect(seen).toEqual(['db-0', 'db-1', 'db-2']);
    const rev = sts.status?.updateRevision as string;
    expect(rev).toMatch(/^db-[a-z0-9]+$/);
    expect(sts.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      availableReplicas: 3,
      currentRevision: rev,
      observedGeneration: 1,
      collisionCount: 0,
    });
    const list = (await pods('db')).sort((a, b) =>
      String(a.metadata?.name).localeCompare(String(b.metadata?.name)),
    );
    list.forEach((pod, i) => {
      expect(pod.metadata?.labels).toMatchObject({
        'controller-revision-hash': rev,
        'statefulset.kubernetes.io/pod-name': `db-${i}`,
        'apps.kubernetes.io/pod-index': String(i),
      });
      expect(pod.spec?.hostname).toBe(`db-${i}`);
      expect(pod.spec?.subdomain).toBe('db');
      expect(pod.spec?.volumes?.find((v) => v.name === 'data')?.persistentVolumeClaim?.claimName).toBe(
        `data-db-${i}`,
      );
    });
    const claim = await c.until(async () => {
      const pvc = await c.core.readNamespacedPersistentVolumeClaim({ name: 'data-db-0', namespace: ns });
      return pvc.status?.phase === 'Bound' && pvc;
    }, 'claim bound');
    expect(claim.status?.capacity).toEqual({ storage: '1Gi' });
    const revisions = await c.apps.listNamespacedControllerRevision({
      namespace: ns,
      labelSelector: 'app=db',
    });
    expect(revisions.items.map((r) => [r.metadata?.name, r.revision])).toEqual([[rev, 1]]);
  });

  it('rolls a StatefulSet update from the highest ordinal and scales down from the top', async () => {
    await c.apps.patchNamespacedStatefulSet(
      {
        name: 'db',
        namespace: ns,
        body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } } },
      },
      MERGE,
    );
    const sts = await c.until(async () => {
      const s = await c.apps.readNamespacedStatefulSet({ name: 'db', namespace: ns });
      return (
        s.status?.observedGeneration === 2 &&
        s.status.updatedReplicas === 3 &&
        s.status.readyReplicas === 3 &&
        s.status.currentRevision === s.status.updateRevision &&
        s
      );
    }, 'statefulset updated');
    for (const pod of await pods('db')) {
      expect(pod.spec?.containers[0].image).toBe('nginx:1.27');
      expect(pod.metadata?.labels?.['controller-revision-hash']).toBe(sts.status?.updateRevision);
    }
    await c.apps.patchNamespacedStatefulSetScale(
      { name: 'db', namespace: ns, body: { spec: { replicas: 1 } } },
      MERGE,
    );
    await c.until(async () => {
      const names = (await pods('db')).map((p) => p.metadata?.name);
      return names.length === 1 && names[0] === 'db-0';
    }, 'only db-0 left');
  });

  it('runs one DaemonSet pod on the simulated node', async () => {
    await c.apps.createNamespacedDaemonSet({
      namespace: ns,
      body: {
        metadata: { name: 'agent' },
        spec: { selector: { matchLabels: { app: 'agent' } }, template: template('agent') },
      },
    });
    const ds = await c.until(async () => {
      const d = await c.apps.readNamespacedDaemonSet({ name: 'agent', namespace: ns });
      return d.status?.numberAvailable === 1 && d;
    }, 'daemonset available');
    expect(ds.status).toMatchObject({
      desiredNumberScheduled: 1,
      currentNumberScheduled: 1,
      numberReady: 1,
      numberAvailable: 1,
      updatedNumberScheduled: 1,
      numberMisscheduled: 0,
      observedGeneration: 1,
    });
    const [pod] = await pods('agent');
    expect(pod.metadata?.name).toMatch(/^agent-[a-z0-9]{5}$/);
    expect(pod.spec?.nodeName).toBe('oam-local-simulated');
    expect(
      pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms,
    ).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['oam-local-simulated'] }] }]);
    expect(pod.metadata?.labels?.['pod-template-generation']).toBe('1');
  });

  it('runs a Job to completion, respecting completions and parallelism', async () => {
    await c.batch.createNamespacedJob({
      namespace: ns,
      body: {
        metadata: { name: 'batch' },
        spec: {
          completions: 3,
          parallelism: 2,
          template: {
            metadata: { labels: { app: 'batch' } },
            spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] },
          },
        },
      },
    });
    let maxActive = 0;
    const job = await c.until(async () => {
      const j = await c.batch.readNamespacedJob({ name: 'batch', namespace: ns });
      maxActive = Math.max(maxActive, j.status?.active ?? 0);
      return j.status?.conditions?.some((x) => x.type === 'Complete' && x.status === 'True') && j;
    }, 'job complete');
    expect(maxActive).toBeLessThanOrEqual(2);
    expect(job.status?.succeeded).toBe(3);
    expect(job.status?.active).toBeUndefined();
    expect(job.status?.completionTime).toBeDefined();
    expect(job.status?.startTime).toBeDefined();
    expect(job.status?.conditions?.map((x) => [x.type, x.status, x.reason])).toEqual([
      ['SuccessCriteriaMet', 'True', 'CompletionsReached'],
      ['Complete', 'True', 'CompletionsReached'],
    ]);
    const list = await pods('batch');
    expect(list).toHaveLength(3);
    for (const pod of list) {
      expect(pod.status?.phase).toBe('Succeeded');
      expect(pod.metadata?.labels?.['batch.kubernetes.io/job-name']).toBe('batch');
      expect(pod.status?.containerStatuses?.[0].state?.terminated).toMatchObject({
        exitCode: 0,
        reason: 'Completed',
      });
    }
  });

  it('fails a Job whose pods fail beyond backoffLimit', async () => {
    await c.batch.createNamespacedJob({
      namespace: ns,
      body: {
        metadata: { name: 'broken' },
        spec: {
          backoffLimit: 1,
          template: {
            metadata: { labels: { app: 'broken' }, annotations: { 'simulation.oam.dev/exit-code': '2' } },
            spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] },
          },
        },
      },
    });
    const job = await c.until(async () => {
      const j = await c.batch.readNamespacedJob({ name: 'broken', namespace: ns });
      return j.status?.conditions?.some((x) => x.type === 'Failed' && x.status === 'True') && j;
    }, 'job failed');
    expect(job.status?.failed).toBe(2);
    expect(job.status?.conditions?.find((x) => x.type === 'Failed')?.reason).toBe('BackoffLimitExceeded');
  });

  it('reports HPA status from the target scale without touching replicas, and scales on a simulated metric', async () => {
    await c.apps.createNamespacedDeployment({
      namespace: ns,
      body: {
        metadata: { name: 'api' },
        spec: { replicas: 2, selector: { matchLabels: { app: 'api' } }, template: template('api') },
      },
    });
    await c.autoscaling.createNamespacedHorizontalPodAutoscaler({
      namespace: ns,
      body: {
        metadata: { name: 'api' },
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' },
          minReplicas: 1,
          maxReplicas: 5,
          metrics: [
            {
              type: 'Resource',
              resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
            },
          ],
        },
      },
    });
    const readHpa = () => c.autoscaling.readNamespacedHorizontalPodAutoscaler({ name: 'api', namespace: ns });
    const readDeployment = () => c.apps.readNamespacedDeployment({ name: 'api', namespace: ns });
    const conditions = (h: k8s.V2HorizontalPodAutoscaler) =>
      h.status?.conditions?.map((x) => [x.type, x.status, x.reason]);
    // The HPA's arithmetic uses the ready pods: wait until both are ready (steps the fake clock).
    const hpa = await c.until(async () => {
      const h = await readHpa();
      const d = await readDeployment();
      return h.status?.currentReplicas === 2 && d.status?.readyReplicas === 2 && h;
    }, 'hpa status, 2 ready pods');
    expect(hpa.status?.desiredReplicas).toBe(2);
    expect(conditions(hpa)).toEqual([
      ['AbleToScale', 'True', 'SucceededGetScale'],
      ['ScalingActive', 'False', 'FailedGetResourceMetric'],
    ]);
    expect((await readDeployment()).spec?.replicas).toBe(2);

    // 100 % against a 50 % target: twice the ready replicas, and (the simulated pods stay that busy) up to max.
    await c.autoscaling.patchNamespacedHorizontalPodAutoscaler(
      {
        name: 'api',
        namespace: ns,
        body: { metadata: { annotations: { 'simulation.oam.dev/utilization': '100' } } },
      },
      MERGE,
    );
    await c.settle();
    // 2 ready × 2 = 4; the two new pods are not ready yet, so 4 is all the HPA asks for (within range).
    const first = await readHpa();
    expect([first.status?.currentReplicas, first.status?.desiredReplicas]).toEqual([4, 4]);
    expect(first.status?.lastScaleTime).toBeDefined();
    expect(conditions(first)).toEqual([
      ['AbleToScale', 'True', 'ReadyForNewScale'],
      ['ScalingActive', 'True', 'ValidMetricFound'],
      ['ScalingLimited', 'False', 'DesiredWithinRange'],
    ]);
    expect((await readDeployment()).spec?.replicas).toBe(4);

    // Once they are ready: 4 × 2 = 8, limited to maxReplicas. Wait for the settled state, all 5 ready:
    // while only some pods are ready the HPA holds at 5 within range (fewer ready pods ask for fewer).
    const scaled = await c.until(async () => {
      const h = await readHpa();
      const d = await readDeployment();
      return d.status?.readyReplicas === 5 && h.status?.currentReplicas === 5 && h;
    }, 'hpa scaled the deployment to maxReplicas, all ready');
    expect(scaled.status?.desiredReplicas).toBe(5);
    expect(scaled.status?.currentMetrics?.[0].resource?.current.averageUtilization).toBe(100);
    expect(conditions(scaled)).toEqual([
      ['AbleToScale', 'True', 'ReadyForNewScale'],
      ['ScalingActive', 'True', 'ValidMetricFound'],
      ['ScalingLimited', 'True', 'TooManyReplicas'],
    ]);
    expect((await readDeployment()).spec?.replicas).toBe(5);
    const rescales = (await c.core.listNamespacedEvent({ namespace: ns })).items
      .filter((e) => e.reason === 'SuccessfulRescale')
      .map((e) => e.message);
    expect(rescales).toEqual([
      'New size: 4; reason: cpu resource utilization (percentage of request) above target',
      'New size: 5; reason: cpu resource utilization (percentage of request) above target',
    ]);
  });

  it('runs a Job that carries a selector and the job labels (as kube-apiserver generates them)', async () => {
    const labels = { 'batch.kubernetes.io/job-name': 'selected', 'job-name': 'selected' };
    await c.batch.createNamespacedJob({
      namespace: ns,
      body: {
        metadata: { name: 'selected' },
        spec: {
          completions: 2,
          manualSelector: true,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] },
          },
        },
      },
    });
    const job = await c.until(async () => {
      const j = await c.batch.readNamespacedJob({ name: 'selected', namespace: ns });
      return j.status?.conditions?.some((x) => x.type === 'Complete' && x.status === 'True') && j;
    }, 'job with a selector complete');
    expect(job.status?.succeeded).toBe(2);
    const jobPods = (
      await c.core.listNamespacedPod({
        namespace: ns,
        labelSelector: 'batch.kubernetes.io/job-name=selected',
      })
    ).items;
    expect(jobPods).toHaveLength(2);
    for (const p of jobPods) {
      expect(p.metadata?.labels).toMatchObject({
        'batch.kubernetes.io/controller-uid': job.metadata?.uid,
        'controller-uid': job.metadata?.uid,
        ...labels,
      });
      expect(p.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Job', uid: job.metadata?.uid });
    }
  });

  it('never logs an error', () => {
    expect(c.logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});
