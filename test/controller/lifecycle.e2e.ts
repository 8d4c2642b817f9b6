import { eventually, type KubeObject } from '#kube-core';
import { ControllerCluster, edit, helloApp } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const image = (d: KubeObject | undefined) => (d?.spec as any)?.template?.spec?.containers?.[0]?.image;
const running = (generation?: number) => (s: Record<string, any>, app: KubeObject) =>
  s.status === 'running' && s.observedGeneration === (generation ?? app.metadata?.generation);

async function runningHello(
  prefix: string,
  change?: (spec: Record<string, any>) => void,
): Promise<{ ns: string; app: KubeObject }> {
  const ns = await cluster.namespace(prefix);
  const app = change ? edit(helloApp(ns), change) : helloApp(ns);
  await cluster.applyApp(app);
  await cluster.appStatus(ns, 'hello', running(), 'hello to be running');
  return { ns, app };
}

describe('the controller keeps an Application’s objects as its spec says', () => {
  it('editing properties rolls the Deployment to a new revision', async () => {
    const { ns, app } = await runningHello('edit');
    const before = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    await cluster.applyApp(edit(app, (s) => (s.components[0].properties.image = 'crccheck/hello-world:v2')));
    const done = await cluster.appStatus(ns, 'hello', running(2), 'the edit to be running');
    expect((done.status as any).latestRevision).toMatchObject({ name: 'hello-v2', revision: 2 });
    const after = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect(image(after)).toBe('crccheck/hello-world:v2');
    expect(after?.metadata?.uid).toBe(before?.metadata?.uid); // rolled, not re-created
    expect(after?.metadata?.generation).toBeGreaterThan(before!.metadata!.generation!);
    expect(after?.metadata?.labels?.['app.oam.dev/appRevision']).toBe('hello-v2');
  });

  it('removing traits removes their outputs and their patches', async () => {
    const { ns, app } = await runningHello('traits', (s) =>
      s.components[0].traits.push(
        { type: 'gateway', properties: { domain: 'hello.example.com', http: { '/': 8000 } } },
        { type: 'labels', properties: { team: 'blue' } },
      ),
    );
    const ingress = await cluster.get('networking.k8s.io/v1', 'Ingress', ns, 'hello-web');
    expect(ingress?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Application', name: 'hello' });
    const labelled = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect(labelled?.metadata?.labels?.team).toBe('blue');

    await cluster.applyApp(
      edit(app, (s) => (s.components[0].traits = [{ type: 'scaler', properties: { replicas: 2 } }])),
    );
    await cluster.appStatus(ns, 'hello', running(2), 'the app without gateway and labels to be running');
    await eventually(
      async () => (await cluster.get('networking.k8s.io/v1', 'Ingress', ns, 'hello-web')) === undefined,
      'the Ingress to be pruned',
    );
    const unlabelled = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect(unlabelled?.metadata?.labels?.team).toBeUndefined();
    expect((unlabelled?.spec as any).template.metadata.labels.team).toBeUndefined();
    expect(unlabelled?.metadata?.uid).toBe(labelled?.metadata?.uid);
    const status = (await cluster.app(ns, 'hello'))!.status as any;
    expect(status.appliedResources.map((r: any) => r.kind).sort()).toEqual(['Deployment', 'Service']);
  });

  it('puts back a manual image edit and keeps a foreign annotation', async () => {
    const { ns } = await runningHello('drift');
    const deployments = await cluster.resource({ apiVersion: 'apps/v1', kind: 'Deployment' });
    await deployments.patch(
      ns,
      'hello-web',
      {
        metadata: { annotations: { 'example.com/owner': 'ops' } },
        spec: { template: { spec: { containers: [{ name: 'hello-web', image: 'nginx:edited' }] } } },
      },
      { type: 'strategic', fieldManager: 'kubectl-edit' },
    );
    const fixed = await eventually(async () => {
      const d = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
      return image(d) === 'crccheck/hello-world' ? d : undefined;
    }, 'the image edit to be reverted');
    expect(fixed.metadata?.annotations?.['example.com/owner']).toBe('ops');
  });

  it('re-creates an object someone deleted', async () => {
    const { ns } = await runningHello('recreate');
    const services = await cluster.resource({ apiVersion: 'v1', kind: 'Service' });
    const before = await services.get(ns, 'hello-web');
    await services.delete(ns, 'hello-web');
    const after = await eventually(async () => {
      const s = await cluster.get('v1', 'Service', ns, 'hello-web');
      return s && s.metadata?.uid !== before.metadata?.uid ? s : undefined;
    }, 'the Service to be re-created');
    expect(after.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Application', name: 'hello' });
    await cluster.appStatus(
      ns,
      'hello',
      (s) => s.appliedResources.some((r: any) => r.kind === 'Service' && r.uid === after.metadata?.uid),
      'the new Service’s UID to be recorded',
    );
  });

  it('reports a bad update with its field path and keeps the running version', async () => {
    const { ns, app } = await runningHello('bad');
    await cluster.applyApp(edit(app, (s) => (s.components[0].properties.ports[0].port = 'eighty')));
    const failed = await cluster.appStatus(
      ns,
      'hello',
      (s) => s.conditions?.some((c: any) => c.type === 'Rendered' && c.status === 'False'),
      'the Rendered condition to report the error',
    );
    const rendered = (failed.status as any).conditions.find((c: any) => c.type === 'Rendered');
    expect(rendered.message).toContain('properties.ports[0].port');
    expect(rendered.message).toContain('components[0] "hello-web" (webservice)');
    expect(rendered.observedGeneration).toBe(2);
    expect((failed.status as any).latestRevision.revision).toBe(1);
    const deployment = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect(image(deployment)).toBe('crccheck/hello-world');
    expect(deployment?.metadata?.labels?.['app.oam.dev/appRevision']).toBe('hello-v1');
    const events = await cluster.resource({ apiVersion: 'v1', kind: 'Event' });
    const found = await eventually(async () => {
      const list = await events.list({ namespace: ns });
      return list.items.find((e: any) => e.reason === 'RenderFailed' && e.involvedObject?.name === 'hello');
    }, 'a RenderFailed event');
    expect((found as any).message).toContain('properties.ports[0].port');
  });

  it('re-renders the users of a definition when it changes', async () => {
    const ns = await cluster.namespace('def');
    const definitions = await cluster.resource({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'TraitDefinition',
    });
    const teamLabel = (team: string) => ({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'TraitDefinition',
      metadata: { name: 'team-label', namespace: ns },
      spec: {
        appliesToWorkloads: ['deployments.apps'],
        schematic: { cue: { template: `patch: metadata: labels: team: "${team}"\nparameter: {}\n` } },
      },
    });
    await definitions.apply(teamLabel('blue'), { fieldManager: 'platform-team', force: true });
    await cluster.applyApp(edit(helloApp(ns), (s) => s.components[0].traits.push({ type: 'team-label' })));
    await cluster.appStatus(ns, 'hello', running(), 'hello with team-label to be running');
    expect((await cluster.get('apps/v1', 'Deployment', ns, 'hello-web'))?.metadata?.labels?.team).toBe(
      'blue',
    );

    await definitions.apply(teamLabel('green'), { fieldManager: 'platform-team', force: true });
    await eventually(
      async () =>
        (await cluster.get('apps/v1', 'Deployment', ns, 'hello-web'))?.metadata?.labels?.team === 'green',
      'the Deployment to carry the new definition’s label',
    );
    await cluster.appStatus(
      ns,
      'hello',
      (st) => st.latestRevision?.revision === 2 && st.status === 'running',
      'a new revision for the changed definition',
    );
  });

  it('a definition in the application’s namespace overrides the system one, for that namespace only', async () => {
    const { ns } = await runningHello('override');
    const { ns: elsewhere } = await runningHello('untouched');
    const definitions = await cluster.resource({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'TraitDefinition',
    });
    await definitions.create({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'TraitDefinition',
      metadata: { name: 'scaler', namespace: ns },
      spec: {
        appliesToWorkloads: ['deployments.apps'],
        schematic: {
          cue: { template: 'patch: spec: replicas: parameter.replicas + 1\nparameter: replicas: *1 | int\n' },
        },
      },
    });
    await eventually(
      async () =>
        ((await cluster.get('apps/v1', 'Deployment', ns, 'hello-web'))?.spec as any)?.replicas === 3,
      'the namespace’s own scaler to apply',
    );
    const other = await cluster.get('apps/v1', 'Deployment', elsewhere, 'hello-web');
    expect((other?.spec as any).replicas).toBe(2);
  });

  it('deleting the Application removes everything it applied, then the Application', async () => {
    const { ns } = await runningHello('delete');
    const apps = await cluster.resource({ apiVersion: 'core.oam.dev/v1beta1', kind: 'Application' });
    await apps.delete(ns, 'hello');
    await eventually(
      async () => (await cluster.app(ns, 'hello')) === undefined,
      'the Application to be gone',
    );
    expect(await cluster.get('apps/v1', 'Deployment', ns, 'hello-web')).toBeUndefined();
    expect(await cluster.get('v1', 'Service', ns, 'hello-web')).toBeUndefined();
  });
});
