import * as k8s from '@kubernetes/client-node';
import { startSimulatedCluster, type SimulatedCluster } from './testing.js';

const ns = 'default';
const MERGE = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch);
const NODE = 'oam-local-simulated';
const HOUR = 3_600_000;

describe('workload simulator: Endpoints, EndpointSlices, the Node', () => {
  let c: SimulatedCluster;
  let discovery: k8s.DiscoveryV1Api;
  let served: { nodes: boolean; endpointslices: boolean };

  beforeAll(async () => {
    c = await startSimulatedCluster({ readyDelayMs: 30 });
    discovery = c.server.kubeConfig.makeApiClient(k8s.DiscoveryV1Api);
    const core = await c.core.getAPIResources();
    const group = await c.server.kubeConfig
      .makeApiClient(k8s.ApisApi)
      .getAPIVersions()
      .then((g) => g.groups.some((x) => x.name === 'discovery.k8s.io'));
    const slices = group
      ? (await discovery.getAPIResources()).resources.some((r) => r.name === 'endpointslices')
      : false;
    served = { nodes: core.resources.some((r) => r.name === 'nodes'), endpointslices: slices };
  });
  afterAll(async () => {
    await c.stop();
  });

  const readyPods = async (app: string) =>
    (await c.core.listNamespacedPod({ namespace: ns, labelSelector: `app=${app}` })).items.filter((p) =>
      p.status?.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'),
    );
  const endpoints = (name: string) => c.core.readNamespacedEndpoints({ name, namespace: ns });
  const ips = (addresses: k8s.V1EndpointAddress[] | undefined) => (addresses ?? []).map((a) => a.ip).sort();
  const podIps = (pods: k8s.V1Pod[]) => pods.map((p) => p.status?.podIP as string).sort();

  /** Waits until the Endpoints list exactly the Ready pods' IPs, `want` of them. */
  const endpointsFollowReadyPods = (app: string, want: number, notReady = 0) =>
    c.until(async () => {
      const pods = await readyPods(app);
      const ep = await endpoints(app);
      const subset = ep.subsets?.[0];
      const ready = ips(ep.subsets?.flatMap((s) => s.addresses ?? []));
      return (
        pods.length === want &&
        JSON.stringify(ready) === JSON.stringify(podIps(pods)) &&
        (subset?.notReadyAddresses ?? []).length === notReady &&
        ep
      );
    }, `${app}: endpoints of ${want} ready pods`);

  const deployment = (app: string, replicas: number): k8s.V1Deployment => ({
    metadata: { name: app },
    spec: {
      replicas,
      selector: { matchLabels: { app } },
      template: {
        metadata: { labels: { app } },
        spec: {
          containers: [{ name: 'main', image: 'nginx:1.25', ports: [{ name: 'http', containerPort: 8080 }] }],
        },
      },
    },
  });

  it('lists exactly the Ready pods, and follows readiness and scale changes', async () => {
    await c.apps.createNamespacedDeployment({ namespace: ns, body: deployment('web', 3) });
    await c.core.createNamespacedService({
      namespace: ns,
      body: {
        metadata: { name: 'web', labels: { tier: 'front' } },
        spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
      },
    });
    const ep = await endpointsFollowReadyPods('web', 3);
    expect(ep.metadata?.labels).toEqual({
      tier: 'front',
      'endpoints.kubernetes.io/managed-by': 'endpoint-controller',
    });
    expect(ep.subsets).toHaveLength(1);
    expect(ep.subsets?.[0].ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const pods = await readyPods('web');
    for (const a of ep.subsets?.[0].addresses ?? []) {
      const pod = pods.find((p) => p.status?.podIP === a.ip);
      expect(a.nodeName).toBe(NODE);
      expect(a.targetRef).toEqual({
        kind: 'Pod',
        namespace: ns,
        name: pod?.metadata?.name,
        uid: pod?.metadata?.uid,
      });
    }

    // A pod's readiness probe starts failing: it moves to notReadyAddresses, then back.
    const victim = pods[0];
    const patchReady = (value: string) =>
      c.core.patchNamespacedPod(
        {
          name: victim.metadata?.name as string,
          namespace: ns,
          body: { metadata: { annotations: { 'simulation.oam.dev/ready': value } } },
        },
        MERGE,
      );
    await patchReady('false');
    const degraded = await endpointsFollowReadyPods('web', 2, 1);
    expect(degraded.subsets?.[0].notReadyAddresses?.map((a) => a.ip)).toEqual([victim.status?.podIP]);
    await patchReady('true');
    await endpointsFollowReadyPods('web', 3);

    // Scale up and down.
    await c.apps.patchNamespacedDeploymentScale(
      { name: 'web', namespace: ns, body: { spec: { replicas: 5 } } },
      MERGE,
    );
    await endpointsFollowReadyPods('web', 5);
    await c.apps.patchNamespacedDeploymentScale(
      { name: 'web', namespace: ns, body: { spec: { replicas: 1 } } },
      MERGE,
    );
    await endpointsFollowReadyPods('web', 1);

    // The Service changes: a numeric target port.
    await c.core.patchNamespacedService(
      {
        name: 'web',
        namespace: ns,
        body: { spec: { ports: [{ name: 'http', port: 80, targetPort: 9090 }] } },
      },
      MERGE,
    );
    await c.until(
      async () => (await endpoints('web')).subsets?.[0].ports?.[0].port === 9090,
      'ports follow the service',
    );

    // Settled: no further writes to the Endpoints (nothing rewrites them in a loop). settle() fails
    // if reconciles keep queueing each other; an hour of simulated time fires every delayed wake-up.
    await c.settle();
    const rv = (await endpoints('web')).metadata?.resourceVersion;
    await c.step(HOUR);
    expect((await endpoints('web')).metadata?.resourceVersion).toBe(rv);

    // Deleting the Service deletes its Endpoints.
    await c.core.deleteNamespacedService({ name: 'web', namespace: ns });
    await c.until(
      async () =>
        endpoints('web').then(
          () => false,
          () => true,
        ),
      'endpoints deleted with the service',
    );
  });

  it('serves headless services without ports, and leaves selectorless services alone', async () => {
    await c.apps.createNamespacedDeployment({ namespace: ns, body: deployment('db', 2) });
    await c.core.createNamespacedService({
      namespace: ns,
      body: { metadata: { name: 'db' }, spec: { clusterIP: 'None', selector: { app: 'db' } } },
    });
    const ep = await endpointsFollowReadyPods('db', 2);
    expect(ep.metadata?.labels).toMatchObject({ 'service.kubernetes.io/headless': '' });
    expect(ep.subsets?.[0].ports).toBeUndefined();

    await c.core.createNamespacedService({
      namespace: ns,
      body: { metadata: { name: 'external' }, spec: { ports: [{ port: 5432 }] } },
    });
    await c.core.createNamespacedEndpoints({
      namespace: ns,
      body: {
        metadata: { name: 'external' },
        subsets: [{ addresses: [{ ip: '192.0.2.10' }], ports: [{ port: 5432 }] }],
      },
    });
    // Whatever the controllers would do has happened once they settle and time has moved on.
    await c.settle();
    await c.step(HOUR);
    const mine = await endpoints('external');
    expect(mine.subsets).toHaveLength(1);
    expect(mine.subsets?.[0].addresses?.map((a) => a.ip)).toEqual(['192.0.2.10']);
    expect(mine.subsets?.[0].ports?.map((p) => p.port)).toEqual([5432]);
    expect(mine.metadata?.labels?.['endpoints.kubernetes.io/managed-by']).toBeUndefined();
  });

  it('publishes EndpointSlices owned by the service', async () => {
    await c.apps.createNamespacedDeployment({ namespace: ns, body: deployment('api', 2) });
    const svc = await c.core.createNamespacedService({
      namespace: ns,
      body: {
        metadata: { name: 'api' },
        spec: { selector: { app: 'api' }, ports: [{ port: 80, targetPort: 'http' }] },
      },
    });
    await endpointsFollowReadyPods('api', 2);
    expect(served.endpointslices).toBe(true);
    const slices = await c.until(async () => {
      const list = await discovery.listNamespacedEndpointSlice({
        namespace: ns,
        labelSelector: 'kubernetes.io/service-name=api',
      });
      const eps = list.items.flatMap((s) => s.endpoints ?? []);
      return eps.length === 2 && eps.every((e) => e.conditions?.ready) && list;
    }, 'endpoint slices');
    const [slice] = slices.items;
    expect(slice.metadata?.name).toMatch(/^api-[a-z0-9]{5}$/);
    expect(slice.metadata?.labels).toMatchObject({
      'kubernetes.io/service-name': 'api',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'Service', name: 'api', uid: svc.metadata?.uid, controller: true }),
    ]);
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
    expect(slice.endpoints?.[0].conditions).toEqual({ ready: true, serving: true, terminating: false });
    expect(slice.endpoints?.map((e) => e.addresses[0]).sort()).toEqual(podIps(await readyPods('api')));

    // Settled: the slice is not rewritten in a loop.
    await c.settle();
    await c.step(HOUR);
    const again = await discovery.readNamespacedEndpointSlice({
      name: slice.metadata?.name as string,
      namespace: ns,
    });
    expect(again.metadata?.resourceVersion).toBe(slice.metadata?.resourceVersion);
  });

  it('publishes a Ready Node for the simulated node, and recreates it when deleted', async () => {
    await c.simulator.idle();
    expect(served.nodes).toBe(true);
    const node = await c.until(
      () => c.core.readNode({ name: NODE }).then((n) => Boolean(n.status?.conditions?.length) && n),
      'node',
    );
    expect(node.metadata?.labels).toMatchObject({
      'kubernetes.io/hostname': NODE,
      'kubernetes.io/os': 'linux',
      'node.kubernetes.io/instance-type': 'simulated',
    });
    expect(node.metadata?.annotations).toMatchObject({ 'simulation.oam.dev/simulated': 'true' });
    expect(node.status?.conditions?.find((x) => x.type === 'Ready')?.status).toBe('True');
    expect(node.status?.nodeInfo?.kubeletVersion).toBe('v1.37.2+oam-local');
    expect(node.status?.addresses).toEqual([
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: NODE },
    ]);
    // Kept as it is: no heartbeat rewrites it, however much time passes.
    await c.step(HOUR);
    expect((await c.core.readNode({ name: NODE })).metadata?.resourceVersion).toBe(
      node.metadata?.resourceVersion,
    );
    await c.core.deleteNode({ name: NODE });
    await c.until(
      () => c.core.readNode({ name: NODE }).then((n) => n.metadata?.uid !== node.metadata?.uid),
      'node recreated',
    );
  });

  it("schedules against the Node's labels and honours a cordon", async () => {
    const pod = (name: string, extra: Partial<k8s.V1PodSpec> = {}) =>
      c.core.createNamespacedPod({
        namespace: ns,
        body: { metadata: { name }, spec: { containers: [{ name: 'main', image: 'busybox' }], ...extra } },
      });
    const scheduled = (name: string) =>
      c.core.readNamespacedPod({ name, namespace: ns }).then((p) => p.spec?.nodeName === NODE);
    const unschedulable = (name: string, message: string) =>
      c.until(
        () =>
          c.core.readNamespacedPod({ name, namespace: ns }).then((p) => {
            const cond = p.status?.conditions?.find((x) => x.type === 'PodScheduled');
            return cond?.reason === 'Unschedulable' && (cond.message ?? '').includes(message);
          }),
        `${name} unschedulable`,
      );
    await pod('ssd-only', { nodeSelector: { disktype: 'ssd' } });
    await unschedulable('ssd-only', "didn't match Pod's node affinity/selector");
    await c.core.patchNode({ name: NODE, body: { metadata: { labels: { disktype: 'ssd' } } } }, MERGE);
    await c.until(() => scheduled('ssd-only'), 'scheduled once the node is labelled');

    await c.core.patchNode({ name: NODE, body: { spec: { unschedulable: true } } }, MERGE);
    await pod('cordoned');
    await unschedulable('cordoned', 'node(s) were unschedulable');
    await c.core.patchNode({ name: NODE, body: { spec: { unschedulable: null } } }, MERGE);
    await c.until(() => scheduled('cordoned'), 'scheduled once uncordoned');
  });

  it('marks what it makes up as simulated', async () => {
    const [pod] = await readyPods('db');
    expect(pod.metadata?.annotations).toMatchObject({ 'simulation.oam.dev/simulated': 'true' });
    expect(pod.status?.hostIP).toBe('127.0.0.1');
    const status = pod.status?.containerStatuses?.[0];
    expect(status?.imageID).toBe('simulated://docker.io/library/nginx:1.25');
    expect(status?.containerID).toMatch(/^simulated:\/\//);
    const events = await c.core.listNamespacedEvent({
      namespace: ns,
      fieldSelector: `involvedObject.name=${pod.metadata?.name}`,
    });
    const pulled = events.items.find((e) => e.reason === 'Pulled');
    expect(pulled?.message).toContain('simulated');
    expect(events.items.some((e) => /already present on machine/.test(e.message ?? ''))).toBe(false);
  });

  it('never logs an error', () => {
    expect(c.logs.filter((l) => l.level === 'error')).toEqual([]);
  });
});
