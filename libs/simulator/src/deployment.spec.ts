import * as k8s from '@kubernetes/client-node';
import { labelsOf, startSimulatedCluster, type SimulatedCluster } from './testing.js';

const ns = 'default';
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);

function deployment(
  name: string,
  replicas: number,
  image = 'nginx:1.25',
  extra: Partial<k8s.V1DeploymentSpec> = {},
) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } },
      ...extra,
    },
  } as k8s.V1Deployment;
}

describe('workload simulator: Deployments, ReplicaSets and the kubelet', () => {
  let c: SimulatedCluster;

  beforeAll(async () => {
    c = await startSimulatedCluster({ readyDelayMs: 30 });
  });
  afterAll(async () => {
    await c.stop();
  });

  const pods = async (selector: Record<string, string>) =>
    (await c.core.listNamespacedPod({ namespace: ns, labelSelector: labelsOf(selector) })).items;
  const replicaSets = async (app: string) =>
    (await c.apps.listNamespacedReplicaSet({ namespace: ns, labelSelector: `app=${app}` })).items;
  const complete = (d: k8s.V1Deployment, replicas: number) =>
    d.status?.observedGeneration === d.metadata?.generation &&
    d.status?.updatedReplicas === replicas &&
    d.status?.availableReplicas === replicas &&
    (d.status?.replicas ?? 0) === replicas &&
    d.status?.conditions?.find((x) => x.type === 'Progressing')?.reason === 'NewReplicaSetAvailable';
  const waitComplete = (name: string, replicas: number) =>
    c.until(async () => {
      const d = await c.apps.readNamespacedDeployment({ name, namespace: ns });
      return complete(d, replicas) && d;
    }, `deployment ${name} complete with ${replicas}`);

  it('makes a Deployment of 2 replicas Available with 2 ready Pods, through a ReplicaSet', async () => {
    await c.apps.createNamespacedDeployment({ namespace: ns, body: deployment('web', 2) });
    const d = await waitComplete('web', 2);
    expect(d.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    expect(d.status).toMatchObject({
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
    });
    expect(d.status?.unavailableReplicas).toBeUndefined();
    const available = d.status?.conditions?.find((x) => x.type === 'Available');
    expect(available).toMatchObject({
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
    });
    expect(d.status?.conditions?.find((x) => x.type === 'Progressing')).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
    });

    const [rs] = await replicaSets('web');
    const hash = rs.metadata?.labels?.['pod-template-hash'] as string;
    expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(rs.metadata?.name).toBe(`web-${hash}`);
    expect(rs.spec?.selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.spec?.template?.metadata?.labels).toEqual({ app: 'web', 'pod-template-hash': hash });
    expect(rs.metadata?.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '1',
      'deployment.kubernetes.io/desired-replicas': '2',
      'deployment.kubernetes.io/max-replicas': '3',
    });
    expect(rs.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'web',
        uid: d.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(rs.status).toMatchObject({
      replicas: 2,
      fullyLabeledReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
    });
    expect(rs.status?.observedGeneration).toBe(rs.metadata?.generation);

    const list = await pods({ app: 'web' });
    expect(list).toHaveLength(2);
    for (const pod of list) {
      expect(pod.metadata?.name).toMatch(new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(pod.metadata?.ownerReferences?.[0]).toMatchObject({
        kind: 'ReplicaSet',
        name: rs.metadata?.name,
        uid: rs.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      });
      expect(pod.spec?.nodeName).toBe('oam-local-simulated');
      expect(pod.status?.phase).toBe('Running');
      expect(pod.status?.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
      expect(pod.status?.conditions?.map((x) => [x.type, x.status])).toEqual([
        ['PodReadyToStartContainers', 'True'],
        ['Initialized', 'True'],
        ['Ready', 'True'],
        ['ContainersReady', 'True'],
        ['PodScheduled', 'True'],
      ]);
      expect(pod.status?.containerStatuses?.[0]).toMatchObject({
        name: 'main',
        ready: true,
        started: true,
        restartCount: 0,
        image: 'docker.io/library/nginx:1.25',
      });
      expect(pod.status?.containerStatuses?.[0].state?.running?.startedAt).toBeDefined();
    }
    expect(new Set(list.map((p) => p.status?.podIP)).size).toBe(2);

    const events = await c.core.listNamespacedEvent({ namespace: ns });
    expect(events.items.map((e) => `${e.reason} ${e.message}`)).toContain(
      `ScalingReplicaSet Scaled up replica set web-${hash} from 0 to 2`,
    );
  });

  it('rolls out a new ReplicaSet when the image changes and scales the old one to 0', async () => {
    const [old] = await replicaSets('web');
    await c.apps.patchNamespacedDeployment(
      {
        name: 'web',
        namespace: ns,
        body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } } } },
      },
      MERGE,
    );
    const d = await waitComplete('web', 2);
    expect(d.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    const sets = await replicaSets('web');
    expect(sets).toHaveLength(2);
    const fresh = sets.find((s) => s.metadata?.uid !== old.metadata?.uid) as k8s.V1ReplicaSet;
    const stale = sets.find((s) => s.metadata?.uid === old.metadata?.uid) as k8s.V1ReplicaSet;
    expect(fresh.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
    expect(fresh.spec?.replicas).toBe(2);
    expect(stale.spec?.replicas).toBe(0);
    await c.until(
      async () =>
        (await c.apps.readNamespacedReplicaSet({ name: stale.metadata?.name as string, namespace: ns }))
          .status?.replicas === 0,
      'old replica set empty',
    );
    const list = await c.until(async () => {
      const p = await pods({ app: 'web' });
      return p.length === 2 && p;
    }, 'two pods');
    for (const pod of list) {
      expect(pod.spec?.containers[0].image).toBe('nginx:1.27');
      expect(pod.metadata?.labels?.['pod-template-hash']).toBe(fresh.metadata?.labels?.['pod-template-hash']);
    }
    const events = (await c.core.listNamespacedEvent({ namespace: ns })).items.map((e) => e.message);
    expect(events).toContain(`Scaled down replica set ${stale.metadata?.name} from 2 to 1`);
  });

  it('rolls back to an old template (as kubectl rollout undo does) by reusing its ReplicaSet', async () => {
    const before = await replicaSets('web');
    const first = before.find((s) => s.metadata?.annotations?.['deployment.kubernetes.io/revision'] === '1');
    // kubectl rollout undo: a JSON patch with the old ReplicaSet's template as Go serializes it.
    const template = JSON.parse(JSON.stringify(first?.spec?.template));
    delete template.metadata.labels['pod-template-hash'];
    template.metadata.creationTimestamp = null;
    template.spec.containers[0].resources = {};
    await c.apps.patchNamespacedDeployment(
      { name: 'web', namespace: ns, body: [{ op: 'replace', path: '/spec/template', value: template }] },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch),
    );
    const d = await waitComplete('web', 2);
    expect(d.metadata?.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    const after = await replicaSets('web');
    expect(after.map((s) => s.metadata?.name).sort()).toEqual(before.map((s) => s.metadata?.name).sort());
    const current = after.find((s) => s.spec?.replicas === 2) as k8s.V1ReplicaSet;
    expect(current.metadata?.annotations).toMatchObject({
      'deployment.kubernetes.io/revision': '3',
      'deployment.kubernetes.io/revision-history': '1',
    });
  });

  it('follows the scale subresource up and down', async () => {
    const scale = await c.apps.readNamespacedDeploymentScale({ name: 'web', namespace: ns });
    await c.apps.replaceNamespacedDeploymentScale({
      name: 'web',
      namespace: ns,
      body: { ...scale, metadata: { name: 'web', namespace: ns }, spec: { replicas: 4 } },
    });
    await waitComplete('web', 4);
    expect(await pods({ app: 'web' })).toHaveLength(4);
    const up = await c.apps.readNamespacedDeploymentScale({ name: 'web', namespace: ns });
    expect(up.status?.replicas).toBe(4);

    await c.apps.patchNamespacedDeploymentScale(
      { name: 'web', namespace: ns, body: { spec: { replicas: 1 } } },
      MERGE,
    );
    await waitComplete('web', 1);
    await c.until(async () => (await pods({ app: 'web' })).length === 1, 'one pod left');
    const sets = await replicaSets('web');
    expect(
      sets.find((s) => s.spec?.replicas === 1)?.metadata?.annotations?.[
        'deployment.kubernetes.io/desired-replicas'
      ],
    ).toBe('1');
  });

  it('reports a Deployment whose containers crash as not Available', async () => {
    const body = deployment('crashy', 1, 'busybox');
    body.spec!.template.metadata!.annotations = { 'simulation.oam.dev/exit-code': '1' };
    body.spec!.minReadySeconds = 0;
    await c.apps.createNamespacedDeployment({ namespace: ns, body });
    const pod = await c.until(async () => {
      const [p] = await pods({ app: 'crashy' });
      return p?.status?.containerStatuses?.[0].state?.waiting?.reason === 'CrashLoopBackOff' && p;
    }, 'crash loop');
    expect(pod.status?.containerStatuses?.[0].ready).toBe(false);
    expect(pod.status?.containerStatuses?.[0].restartCount).toBeGreaterThanOrEqual(1);
    expect(pod.status?.containerStatuses?.[0].lastState?.terminated).toMatchObject({
      exitCode: 1,
      reason: 'Error',
    });
    // The container ran (and was ready) for a moment before it crashed: availability follows shortly.
    const d = await c.until(async () => {
      const x = await c.apps.readNamespacedDeployment({ name: 'crashy', namespace: ns });
      return x.status?.conditions?.find((y) => y.type === 'Available')?.status === 'False' && x;
    }, 'crashy unavailable');
    expect(d.status?.conditions?.find((x) => x.type === 'Available')).toMatchObject({
      status: 'False',
      reason: 'MinimumReplicasUnavailable',
    });
    expect(d.status?.unavailableReplicas).toBe(1);
  });

  it('Recreate scales the old ReplicaSet to 0 before the new one starts', async () => {
    await c.apps.createNamespacedDeployment({
      namespace: ns,
      body: deployment('recreate', 2, 'nginx:1', { strategy: { type: 'Recreate' } }),
    });
    await waitComplete('recreate', 2);
    await c.apps.patchNamespacedDeployment(
      {
        name: 'recreate',
        namespace: ns,
        body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:2' }] } } } },
      },
      MERGE,
    );
    await waitComplete('recreate', 2);
    const sets = await replicaSets('recreate');
    expect(sets.map((s) => s.spec?.replicas).sort()).toEqual([0, 2]);
    const events = (await c.core.listNamespacedEvent({ namespace: ns })).items
      .filter((e) => e.involvedObject.name === 'recreate' && e.reason === 'ScalingReplicaSet')
      .map((e) => e.message);
    const down = events.findIndex((m) => m?.includes('from 2 to 0'));
    const up = events.findIndex((m, i) => i > 0 && m?.includes('Scaled up') && m.includes('from 0 to 2'));
    expect(down).toBeGreaterThan(-1);
    expect(up).toBeGreaterThan(down);
  });

  it('deleting a Deployment removes its ReplicaSets and Pods through garbage collection', async () => {
    await c.apps.deleteNamespacedDeployment({ name: 'web', namespace: ns });
    await c.until(async () => (await replicaSets('web')).length === 0, 'replica sets gone');
    await c.until(async () => (await pods({ app: 'web' })).length === 0, 'pods gone');
  });

  it('never logs an error', () => {
    expect(c.logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});
