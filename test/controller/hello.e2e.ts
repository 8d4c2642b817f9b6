import { eventually } from '#kube-core';
import { ControllerCluster, helloApp } from './harness.js';

let cluster: ControllerCluster;
let ns: string;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
  ns = await cluster.namespace('hello');
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

describe('an Application from examples/hello', () => {
  it('becomes healthy with KubeVela-shaped status, owned objects and KubeVela labels', async () => {
    await cluster.applyApp(helloApp(ns));
    const app = await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'hello to be running');
    const status = app.status as Record<string, any>;
    expect(status.observedGeneration).toBe(app.metadata?.generation);
    expect(status.latestRevision).toMatchObject({ name: 'hello-v1', revision: 1 });
    expect(status.services).toEqual([
      expect.objectContaining({
        name: 'hello-web',
        namespace: ns,
        healthy: true,
        message: 'Ready:2/2',
        workloadDefinition: { apiVersion: 'apps/v1', kind: 'Deployment' },
        traits: [{ type: 'scaler', healthy: true }],
      }),
    ]);
    const types = Object.fromEntries(status.conditions.map((c: any) => [c.type, c.status]));
    expect(types).toEqual({ Rendered: 'True', Applied: 'True', Healthy: 'True', Ready: 'True' });
    const applied = status.appliedResources.map((r: any) => `${r.kind}/${r.name}`).sort();
    expect(applied).toEqual(['Deployment/hello-web', 'Service/hello-web']);
    expect(status.appliedResources.every((r: any) => typeof r.uid === 'string')).toBe(true);
    expect(app.metadata?.finalizers).toContain('app.oam.dev/cleanup');

    const deployment = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect(deployment?.metadata?.labels).toMatchObject({
      'app.oam.dev/name': 'hello',
      'app.oam.dev/namespace': ns,
      'app.oam.dev/component': 'hello-web',
      'app.oam.dev/appRevision': 'hello-v1',
      'workload.oam.dev/type': 'webservice',
    });
    expect(deployment?.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Application',
        name: 'hello',
        uid: app.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      }),
    ]);
    const managers = (deployment?.metadata?.managedFields as { manager: string }[]).map((m) => m.manager);
    expect(managers).toContain('oam-controller');
  });

  it('installed the built-in definitions into vela-system, marked as its own', async () => {
    const def = await cluster.get('core.oam.dev/v1beta1', 'ComponentDefinition', 'vela-system', 'webservice');
    expect(def?.metadata?.labels?.['definition.oam.dev/installed-by']).toBe('oam-controller');
    expect(def?.metadata?.annotations?.['definition.oam.dev/content-hash']).toMatch(/^[0-9a-f]{16}$/);
  });

  it('publishes each definition’s parameter schema where KubeVela does, Handlebars ones too', async () => {
    const webservice = await eventually(
      () => cluster.get('v1', 'ConfigMap', 'vela-system', 'component-schema-webservice'),
      'the webservice schema ConfigMap',
    );
    const schema = JSON.parse((webservice.data as Record<string, string>)['openapi-v3-json-schema']);
    expect(schema).toMatchObject({
      type: 'object',
      required: ['image'],
      properties: { image: { type: 'string' } },
    });
    const def = await cluster.get('core.oam.dev/v1beta1', 'ComponentDefinition', 'vela-system', 'webservice');
    expect(webservice.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'ComponentDefinition',
        name: 'webservice',
        uid: def?.metadata?.uid,
        controller: true,
      }),
    ]);
    const labels = await eventually(
      () => cluster.get('v1', 'ConfigMap', 'vela-system', 'trait-schema-labels'),
      'the labels (Handlebars) schema ConfigMap',
    );
    const labelSchema = JSON.parse((labels.data as Record<string, string>)['openapi-v3-json-schema']);
    expect(labelSchema.additionalProperties).toMatchObject({ type: 'string', nullable: true });
  });

  it('publishes a heartbeat Lease in oam-system annotated with its version', async () => {
    const lease = await eventually(
      () => cluster.get('coordination.k8s.io/v1', 'Lease', 'oam-system', 'oam-controller-heartbeat'),
      'the heartbeat lease',
    );
    expect(lease.metadata?.annotations?.['oam.dev/controller-version']).toBeTruthy();
    expect((lease.spec as { renewTime?: string }).renewTime).toBeTruthy();
  });
});
