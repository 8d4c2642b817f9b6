import { loadBuiltinDefinitions } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { silentLogger } from '#runtime';
import { installBuiltins } from '../../apps/controller/src/definitions/builtin-installer.js';
import { ControllerCluster, edit, helloApp } from './harness.js';

let cluster: ControllerCluster;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController();
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const condition = (app: KubeObject, type: string) =>
  ((app.status as any)?.conditions ?? []).find((c: any) => c.type === type);

describe('ownership', () => {
  it('does not take over an object someone else made; the Applied condition says so', async () => {
    const ns = await cluster.namespace('taken');
    const deployments = await cluster.resource({ apiVersion: 'apps/v1', kind: 'Deployment' });
    const theirs = await deployments.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'hello-web', namespace: ns },
      spec: {
        selector: { matchLabels: { app: 'theirs' } },
        template: {
          metadata: { labels: { app: 'theirs' } },
          spec: { containers: [{ name: 'c', image: 'theirs:1' }] },
        },
      },
    });
    await cluster.applyApp(helloApp(ns));
    const app = await cluster.appStatus(
      ns,
      'hello',
      (_s, a) => condition(a, 'Applied')?.status === 'False',
      'the Applied condition to report the conflict',
    );
    expect(condition(app, 'Applied').message).toContain(
      `Deployment "${ns}/hello-web" exists and was not created by this application; not taken over`,
    );
    expect(condition(app, 'Ready').status).toBe('False');
    const after = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect((after?.spec as any).template.spec.containers).toEqual(
      (theirs.spec as any).template.spec.containers,
    );
    expect(after?.metadata?.labels?.['app.oam.dev/name']).toBeUndefined();
    expect(after?.metadata?.ownerReferences).toBeUndefined();
    // What could be applied was: the Service.
    expect(await cluster.get('v1', 'Service', ns, 'hello-web')).toBeDefined();
  });

  it('records what cannot carry an ownerReference (cluster-scoped, other namespaces) and deletes it with the app', async () => {
    const ns = await cluster.namespace('records');
    const other = await cluster.namespace('elsewhere');
    const extraNs = `extra-${ns}`;
    await cluster.applyApp({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'objects', namespace: ns },
      spec: {
        components: [
          {
            name: 'objects',
            type: 'k8s-objects',
            properties: {
              objects: [
                { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'here' }, data: { a: '1' } },
                {
                  apiVersion: 'v1',
                  kind: 'ConfigMap',
                  metadata: { name: 'there', namespace: other },
                  data: { b: '2' },
                },
                { apiVersion: 'v1', kind: 'Namespace', metadata: { name: extraNs } },
              ],
            },
          },
        ],
      },
    });
    const app = await cluster.appStatus(
      ns,
      'objects',
      (s) => s.status === 'running',
      'the objects app to be running',
    );
    const recorded = (app.status as any).appliedResources.map(
      (r: any) => `${r.kind}/${r.namespace ?? ''}/${r.name}`,
    );
    expect(recorded.sort()).toEqual(
      [`ConfigMap/${ns}/here`, `ConfigMap/${other}/there`, `Namespace//${extraNs}`].sort(),
    );
    const there = await cluster.get('v1', 'ConfigMap', other, 'there');
    expect(there?.metadata?.ownerReferences).toBeUndefined();
    expect(there?.metadata?.labels?.['app.oam.dev/name']).toBe('objects');
    const namespace = await cluster.get('v1', 'Namespace', undefined, extraNs);
    expect(namespace?.metadata?.namespace).toBeUndefined();

    const apps = await cluster.resource({ apiVersion: 'core.oam.dev/v1beta1', kind: 'Application' });
    await apps.delete(ns, 'objects');
    await eventually(async () => (await cluster.app(ns, 'objects')) === undefined, 'the app to be gone');
    expect(await cluster.get('v1', 'ConfigMap', other, 'there')).toBeUndefined();
    const ns2 = await cluster.get('v1', 'Namespace', undefined, extraNs);
    expect(ns2 === undefined || ns2.metadata?.deletionTimestamp !== undefined).toBe(true);
  });

  it('reports policies and workflow as stored but not run, and runs the components anyway', async () => {
    const ns = await cluster.namespace('policies');
    await cluster.applyApp(
      edit(helloApp(ns), (s) => {
        s.policies = [{ name: 'where', type: 'topology', properties: { clusters: ['local'] } }];
        s.workflow = { steps: [{ name: 'deploy', type: 'deploy', properties: { policies: ['where'] } }] };
      }),
    );
    const app = await cluster.appStatus(
      ns,
      'hello',
      (s) => s.status === 'running',
      'hello with policies to be running',
    );
    expect(condition(app, 'Supported')).toMatchObject({
      status: 'False',
      reason: 'NotSupported',
      message: 'spec.policies (topology) and spec.workflow: stored but not run by this controller yet',
    });
    expect((app.spec as any).policies).toHaveLength(1); // stored as given
  });
});

describe('the built-in installer', () => {
  it('upgrades only its own unedited definitions and never touches others', async () => {
    const builtins = await loadBuiltinDefinitions();
    const defs = await cluster.resource({ apiVersion: 'core.oam.dev/v1beta1', kind: 'TraitDefinition' });
    // Someone edits one installed definition, and another is replaced by a user's own of that name.
    const edited = (await defs.get('vela-system', 'labels')) as any;
    await defs.update({ ...edited, spec: { ...edited.spec, podDisruptive: false } });
    const annotations = (await defs.get('vela-system', 'annotations')) as any;
    await defs.delete('vela-system', 'annotations');
    await eventually(
      () =>
        defs.get('vela-system', 'annotations').then(
          () => false,
          () => true,
        ),
      'the installed annotations definition to be gone',
    );
    await defs.create({
      apiVersion: annotations.apiVersion,
      kind: annotations.kind,
      metadata: { name: 'annotations', namespace: 'vela-system' },
      spec: annotations.spec,
    });
    // A new release changes three built-ins.
    const changed = builtins.map((d) =>
      ['labels', 'annotations', 'env'].includes(d.metadata.name!)
        ? {
            ...d,
            metadata: { ...d.metadata, annotations: { ...d.metadata.annotations } },
            spec: { ...d.spec, podDisruptive: true, extra: 'v2' },
          }
        : d,
    );
    const report = await installBuiltins(
      cluster.controller!.manager.client,
      changed as never,
      'vela-system',
      silentLogger,
    );
    expect(report).toEqual({
      created: [],
      upgraded: ['TraitDefinition/env'],
      keptEdited: ['TraitDefinition/labels'],
      foreign: ['TraitDefinition/annotations'],
    });
    expect(((await defs.get('vela-system', 'labels')) as any).spec.podDisruptive).toBe(false);
    expect(((await defs.get('vela-system', 'env')) as any).spec.extra).toBe('v2');
  });
});
