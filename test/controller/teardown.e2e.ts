import { eventually } from '#kube-core';
import { NAMESPACES, ResourceClient } from '#runtime';
import { ControllerCluster, helloApp } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController({ heartbeatIntervalMs: 200 });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };

describe('tearing down around the controller never hangs', () => {
  it('deleting an application’s namespace removes the app, its objects and the namespace', async () => {
    const ns = await cluster.namespace('doomed');
    await cluster.applyApp(helloApp(ns));
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'hello to be running');
    await new ResourceClient(cluster.transport, NAMESPACES).delete(undefined, ns);
    await eventually(
      async () => (await cluster.get('v1', 'Namespace', undefined, ns)) === undefined,
      'the namespace to be gone',
    );
  });

  it('deleting the controller’s own namespace: the heartbeat Lease comes back', async () => {
    const lease = () =>
      cluster.get('coordination.k8s.io/v1', 'Lease', 'oam-system', 'oam-controller-heartbeat');
    await eventually(lease, 'the heartbeat lease');
    await new ResourceClient(cluster.transport, NAMESPACES).delete(undefined, 'oam-system');
    await eventually(async () => {
      const ns = await cluster.get('v1', 'Namespace', undefined, 'oam-system');
      return ns && !ns.metadata?.deletionTimestamp && (await lease());
    }, 'oam-system and the heartbeat lease to be back');
  });

  it('deleting the CRDs with Applications still there completes', async () => {
    const ns = await cluster.namespace('crds');
    await cluster.applyApp(helloApp(ns));
    await cluster.appStatus(ns, 'hello', (s) => s.status === 'running', 'hello to be running');
    const crds = await cluster.resource(CRD);
    await crds.delete(undefined, 'applications.core.oam.dev');
    await eventually(
      async () =>
        (await cluster.get(CRD.apiVersion, CRD.kind, undefined, 'applications.core.oam.dev')) === undefined,
      'the Application CRD to be gone',
    );
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'hello-web')).toBeUndefined();
  });
});
