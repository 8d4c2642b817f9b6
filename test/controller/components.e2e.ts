import { eventually, type KubeObject } from '#kube-core';
import { afterCreationSecond, condition, ControllerCluster, webComponent } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const controllerOf = (o: KubeObject | undefined) =>
  o?.metadata?.ownerReferences?.find((r) => r.controller) as { kind: string; name: string } | undefined;

/** Waits until the object's controlling owner is `kind`/`name`; returns the object. */
function ownedBy(
  ns: string,
  apiVersion: string,
  kind: string,
  name: string,
  owner: string,
  ownerName: string,
) {
  return eventually(async () => {
    const o = await cluster.get(apiVersion, kind, ns, name);
    const c = controllerOf(o);
    return c?.kind === owner && c.name === ownerName ? o : undefined;
  }, `${kind} "${name}" to be controlled by ${owner} "${ownerName}"`);
}

const refApp = (ns: string, name: string, component = 'api'): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name, namespace: ns },
  spec: { components: [{ name: component, componentRef: component }] },
});

describe('a standalone Component', () => {
  it('deploys on its own, then moves in place into the Application that references it, and back', async () => {
    const ns = await cluster.namespace('comp');
    await cluster.applyObject(webComponent(ns, 'api'));
    const running = await cluster.oamStatus(
      'Component',
      ns,
      'api',
      (s) => s.status === 'running',
      'the Component to run on its own',
    );
    const status = running.status as Record<string, any>;
    expect(status.services).toEqual([expect.objectContaining({ name: 'api', healthy: true })]);
    expect(condition(status, 'RenderedBy')).toMatchObject({ status: 'True', reason: 'Standalone' });
    expect(condition(status, 'Ready')?.status).toBe('True');
    const deployment = await ownedBy(ns, 'apps/v1', 'Deployment', 'api', 'Component', 'api');
    const service = await ownedBy(ns, 'v1', 'Service', 'api', 'Component', 'api');
    const uids = [deployment.metadata!.uid, service.metadata!.uid];

    // An Application references it: it renders it, taking the same objects over (no re-creation).
    await cluster.applyApp(refApp(ns, 'shop'));
    await cluster.appStatus(
      ns,
      'shop',
      (s) => s.status === 'running',
      'the Application to run the Component',
    );
    const taken = await ownedBy(ns, 'apps/v1', 'Deployment', 'api', 'Application', 'shop');
    const takenService = await ownedBy(ns, 'v1', 'Service', 'api', 'Application', 'shop');
    expect([taken.metadata!.uid, takenService.metadata!.uid]).toEqual(uids);
    expect(taken.metadata!.ownerReferences).toHaveLength(1);
    const component = await cluster.oamStatus(
      'Component',
      ns,
      'api',
      (s) => condition(s, 'RenderedBy')?.reason === 'Application' && s.appliedResources.length === 0,
      'the Component to name the Application rendering it',
    );
    expect(condition(component.status as any, 'RenderedBy')?.message).toContain('Application "shop"');
    expect((component.status as any).status).toBe('running');

    // The developer changes the Component: the Application rendering it re-renders (found by its componentRef).
    await cluster.applyObject(webComponent(ns, 'api', 'crccheck/hello-world:v2'));
    const updated = await eventually(async () => {
      const d = await cluster.get('apps/v1', 'Deployment', ns, 'api');
      return (d?.spec as any)?.template.spec.containers[0].image === 'crccheck/hello-world:v2'
        ? d
        : undefined;
    }, 'the Application to render the changed Component');
    expect(updated.metadata!.uid).toBe(uids[0]);
    expect(updated.metadata!.ownerReferences?.[0]).toMatchObject({ kind: 'Application', name: 'shop' });

    // The reference goes away: the Component takes its objects back, again in place.
    await cluster.applyApp({
      ...refApp(ns, 'shop'),
      spec: { components: [{ name: 'other', type: 'webservice', properties: { image: 'nginx' } }] },
    });
    const back = await ownedBy(ns, 'apps/v1', 'Deployment', 'api', 'Component', 'api');
    const backService = await ownedBy(ns, 'v1', 'Service', 'api', 'Component', 'api');
    expect([back.metadata!.uid, backService.metadata!.uid]).toEqual(uids);
    await cluster.oamStatus(
      'Component',
      ns,
      'api',
      (s) => condition(s, 'RenderedBy')?.reason === 'Standalone' && s.status === 'running',
      'the Component to run on its own again',
    );
    await cluster.appStatus(
      ns,
      'shop',
      (s, a) => s.status === 'running' && s.observedGeneration === a.metadata?.generation,
      'the Application to run its own component',
    );
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'other')).toBeDefined();
    // The Application still holds nothing of the Component's.
    const shop = await cluster.app(ns, 'shop');
    expect((shop!.status as any).appliedResources.map((r: any) => r.name)).not.toContain('api');
  });

  it('is rendered by the older of two Applications; the other is told which; deleting the older hands it over in place', async () => {
    const ns = await cluster.namespace('two');
    await cluster.applyObject(webComponent(ns, 'api'));
    await cluster.oamStatus('Component', ns, 'api', (s) => s.status === 'running', 'the Component to run');
    const uid = (await cluster.get('apps/v1', 'Deployment', ns, 'api'))!.metadata!.uid;
    // Named against their age, so a tie broken by name would pick the wrong one.
    const first = await cluster.applyApp(refApp(ns, 'zeta'));
    await cluster.appStatus(ns, 'zeta', (s) => s.status === 'running', 'the first Application to run');
    await afterCreationSecond(first);
    await cluster.applyApp(refApp(ns, 'alpha'));
    const second = await cluster.appStatus(
      ns,
      'alpha',
      (s) => condition(s, 'ComponentRefs')?.status === 'False',
      'the second Application to be told the first renders the Component',
    );
    expect(condition(second.status as any, 'ComponentRefs')?.message).toBe(
      'Component "api" is rendered by Application "zeta" (the older reference)',
    );
    expect(controllerOf(await cluster.get('apps/v1', 'Deployment', ns, 'api'))).toMatchObject({
      kind: 'Application',
      name: 'zeta',
    });

    // The first goes: its finalizer hands the Component's objects over instead of deleting them.
    await cluster.deleteObject(refApp(ns, 'zeta'));
    const moved = await ownedBy(ns, 'apps/v1', 'Deployment', 'api', 'Application', 'alpha');
    expect(moved.metadata!.uid).toBe(uid);
    await eventually(async () => ((await cluster.app(ns, 'zeta')) ? undefined : true), 'the first app to go');
    const now = await cluster.appStatus(
      ns,
      'alpha',
      (s) => s.status === 'running' && condition(s, 'ComponentRefs') === undefined,
      'the second Application to render the Component',
    );
    expect((now.status as any).services[0]).toMatchObject({ name: 'api', healthy: true });
    expect((await cluster.get('apps/v1', 'Deployment', ns, 'api'))!.metadata!.uid).toBe(uid);
  });

  it('rendered under another name by an Application, its own objects go once the Application runs it', async () => {
    const ns = await cluster.namespace('renamed');
    await cluster.applyObject(webComponent(ns, 'api'));
    await cluster.oamStatus('Component', ns, 'api', (s) => s.status === 'running', 'the Component to run');
    await cluster.applyApp({
      ...refApp(ns, 'shop'),
      spec: { components: [{ name: 'web', componentRef: 'api' }] },
    });
    await ownedBy(ns, 'apps/v1', 'Deployment', 'web', 'Application', 'shop');
    await eventually(
      async () => ((await cluster.get('apps/v1', 'Deployment', ns, 'api')) ? undefined : true),
      'the Component’s own Deployment to go',
    );
    const component = await cluster.oamStatus(
      'Component',
      ns,
      'api',
      (s) => s.appliedResources.length === 0 && s.services[0]?.name === 'web',
      'the Component to hold nothing and mirror the Application’s "web"',
    );
    expect(condition(component.status as any, 'RenderedBy')?.message).toBe(
      'Application "shop" renders it as component "web"',
    );

    // And back: the Component renders "api" again; the Application's "web" is pruned, not left waiting.
    await cluster.applyApp({
      ...refApp(ns, 'shop'),
      spec: { components: [{ name: 'other', type: 'webservice', properties: { image: 'nginx' } }] },
    });
    await ownedBy(ns, 'apps/v1', 'Deployment', 'api', 'Component', 'api');
    await eventually(
      async () => ((await cluster.get('apps/v1', 'Deployment', ns, 'web')) ? undefined : true),
      'the Application’s "web" Deployment to be pruned',
    );
  });
});
