import { eventually, type KubeObject } from '#kube-core';
import { NoKindMatchError } from '#runtime';
import { startRuntimeCluster, type RuntimeCluster } from './harness.js';

// The runtime's client given only objects, as the renderer emits them (apiVersion, kind,
// metadata, spec): no ResourceKind table; discovery maps each one.
let cluster: RuntimeCluster;
let ns: string;

beforeAll(async () => {
  cluster = await startRuntimeCluster();
  ns = await cluster.namespace('rt-apply');
});
afterAll(() => cluster?.stop());

const labels = { 'app.oam.dev/name': 'shop', 'app.oam.dev/namespace': 'rt-apply' };

function rendered(namespace: string): KubeObject[] {
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'shop', namespace, labels },
      spec: {
        replicas: 2,
        selector: { matchLabels: { 'app.oam.dev/component': 'shop' } },
        template: {
          metadata: { labels: { 'app.oam.dev/component': 'shop' } },
          spec: { containers: [{ name: 'shop', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'shop', namespace, labels },
      spec: { selector: { 'app.oam.dev/component': 'shop' }, ports: [{ port: 80, targetPort: 80 }] },
    },
    {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'shop', namespace, labels },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'shop' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
        ],
      },
    },
  ];
}

const crd: KubeObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.e2e.example.com' },
  spec: {
    group: 'e2e.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

describe('client given only the object (mapped through discovery)', () => {
  it('applies a rendered Deployment, Service and HPA, reads them back from the cache and deletes them', async () => {
    const { client } = cluster.manager;
    const objects = rendered(ns);
    for (const obj of objects) {
      const applied = await client.apply(obj);
      expect(applied.metadata?.uid).toBeTruthy();
      expect((applied.metadata?.managedFields as { manager: string }[])[0].manager).toBe('runtime-e2e');
    }
    for (const obj of objects) {
      const cached = await eventually(() => client.get(obj), `${obj.kind} in the cache`);
      expect(cached.kind).toBe(obj.kind);
      expect(cached.metadata?.labels).toEqual(labels);
    }
    // The mapper found each kind's resource and scope: the same objects through the direct client.
    const hpa = await (await client.resourceFor(objects[2])).get(ns, 'shop');
    expect((hpa.spec as { maxReplicas: number }).maxReplicas).toBe(5);
    const listed = await client.list({ apiVersion: 'v1', kind: 'Service' }, { namespace: ns, labels });
    expect(listed.map((s) => s.metadata?.name)).toEqual(['shop']);

    for (const obj of objects) await client.delete(obj);
    for (const obj of objects)
      await eventually(async () => (await client.get(obj)) === undefined, `${obj.kind} gone from the cache`);
  });

  it('names a kind the server does not serve, and finds it once its CRD is installed', async () => {
    const { client } = cluster.manager;
    const widget: KubeObject = {
      apiVersion: 'e2e.example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: ns },
      spec: { size: 3 },
    };
    const before = await client.apply(widget).catch((err: unknown) => err);
    expect(before).toBeInstanceOf(NoKindMatchError);
    expect((before as Error).message).toBe(
      'the server does not serve kind "Widget" in "e2e.example.com/v1" (is its CRD installed?)',
    );

    await client.apply(crd);
    // A miss asks discovery again (at most once a second), so the kind is found once the CRD is served.
    const applied = await eventually(
      () =>
        client
          .apply(widget)
          .catch((err: unknown) => (err instanceof NoKindMatchError ? undefined : Promise.reject(err))),
      'the Widget applied once its CRD is served',
    );
    expect(applied.spec).toEqual({ size: 3 });
    const cached = await eventually(() => client.get(widget), 'the Widget in the cache');
    expect(cached.metadata?.uid).toBe(applied.metadata?.uid);

    await client.delete(widget);
    await eventually(async () => (await client.get(widget)) === undefined, 'the Widget gone');
    await client.delete(crd);
  });

  it('still takes a ResourceKind, and a kind given as apiVersion + kind beside the object', async () => {
    const { client, mapper } = cluster.manager;
    const cm: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c1', namespace: ns },
      data: { a: '1' },
    };
    const kind = await mapper.kindFor(cm);
    expect(kind).toEqual({
      group: '',
      version: 'v1',
      kind: 'ConfigMap',
      plural: 'configmaps',
      namespaced: true,
    });
    await client.apply(kind, cm);
    await client.apply({ apiVersion: 'v1', kind: 'ConfigMap' }, { ...cm, data: { a: '2' } });
    const got = await eventually(
      async () =>
        ((await client.get(kind, ns, 'c1'))?.data as { a?: string } | undefined)?.a === '2'
          ? true
          : undefined,
      'the second apply in the cache',
    );
    expect(got).toBe(true);
    await client.delete(kind, ns, 'c1');
  });
});
