import { eventually, type KubeObject } from '#kube-core';
import type { WatchEvent } from '#runtime';
import { ControllerCluster, edit, helloApp } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const replicasOf = (d: KubeObject | undefined) => (d?.spec as { replicas?: number } | undefined)?.replicas;
const managersOfReplicas = (d: KubeObject | undefined) =>
  ((d?.metadata?.managedFields ?? []) as { manager: string; fieldsV1?: any }[])
    .filter((m) => m.fieldsV1?.['f:spec']?.['f:replicas'] !== undefined)
    .map((m) => m.manager)
    .sort();

describe('an autoscaled component', () => {
  it('lets the HorizontalPodAutoscaler own replicas: never dropped in between, never reverted, also across a re-render', async () => {
    const ns = await cluster.namespace('hpa');
    // Every replica count the Deployment ever had, from before it was created.
    const seen: number[] = [];
    const abort = new AbortController();
    const deployments = await cluster.resource({ apiVersion: 'apps/v1', kind: 'Deployment' });
    const watching = deployments
      .watch(
        { namespace: ns, fieldSelector: 'metadata.name=hello-web', signal: abort.signal },
        (e: WatchEvent<KubeObject>) => {
          const r = replicasOf(e.object);
          // A real API server's BOOKMARK carries an empty object: not a replica count.
          if (e.type !== 'BOOKMARK' && r !== undefined && seen[seen.length - 1] !== r) seen.push(r);
        },
      )
      .catch(() => undefined);

    const app = edit(helloApp(ns), (s) =>
      s.components[0].traits.push({
        type: 'hpa',
        properties: { min: 1, max: 10, cpu: { type: 'Utilization', value: 80 } },
      }),
    );
    await cluster.applyApp(app);
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'the autoscaled app to be running');
    expect(await cluster.get('autoscaling/v2', 'HorizontalPodAutoscaler', ns, 'hello-web')).toBeDefined();
    // The hand-over: the controller no longer manages replicas; they stayed at the seeded 2.
    const handedOver = await eventually(async () => {
      const d = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
      return managersOfReplicas(d).includes('oam-controller') ? undefined : d;
    }, 'spec.replicas to be handed over');
    expect(replicasOf(handedOver)).toBe(2);
    expect(managersOfReplicas(handedOver)).toEqual(['oam-controller-handover']);

    // The HPA scales as an HPA does: through the scale subresource.
    await deployments.patch(
      ns,
      'hello-web',
      { spec: { replicas: 4 } },
      {
        type: 'merge',
        subresource: 'scale',
        fieldManager: 'horizontal-pod-autoscaler',
      },
    );
    // A re-render (new image) applies the Deployment again: replicas must stay the HPA's.
    await cluster.applyApp(edit(app, (s) => (s.components[0].properties.image = 'crccheck/hello-world:v2')));
    const rolled = await cluster.appStatus(
      ns,
      'hello',
      (s, a) =>
        s.status === 'running' &&
        s.observedGeneration === a.metadata?.generation &&
        a.metadata?.generation === 2,
      'the re-rendered app to be running at 4 replicas',
    );
    expect((rolled.status as any).services[0].message).toBe('Ready:4/4');
    const final = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect(replicasOf(final)).toBe(4);
    expect((final?.spec as any).template.spec.containers[0].image).toBe('crccheck/hello-world:v2');
    abort.abort();
    await watching;
    expect(seen).toEqual([2, 4]);
  });

  it('a gateway trait creates an Ingress to the component’s Service', async () => {
    const ns = await cluster.namespace('gateway');
    await cluster.applyApp(
      edit(helloApp(ns), (s) =>
        s.components[0].traits.push({
          type: 'gateway',
          properties: { domain: 'hello.example.com', http: { '/': 8000 } },
        }),
      ),
    );
    const app = await cluster.appStatus(
      ns,
      'hello',
      (s) => s.status === 'running',
      'the app with a gateway to be running',
    );
    const ingress = await cluster.get('networking.k8s.io/v1', 'Ingress', ns, 'hello-web');
    expect((ingress?.spec as any).rules[0]).toMatchObject({
      host: 'hello.example.com',
      http: {
        paths: [
          expect.objectContaining({
            path: '/',
            backend: { service: { name: 'hello-web', port: { number: 8000 } } },
          }),
        ],
      },
    });
    const gateway = (app.status as any).services[0].traits.find((t: any) => t.type === 'gateway');
    expect(gateway.healthy).toBe(true);
  });
});
