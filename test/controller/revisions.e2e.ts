import { eventually, type KubeObject } from '#kube-core';
import { ControllerCluster, edit, helloApp, trait, webComponent } from './harness.js';

let cluster: ControllerCluster;
const LIMIT = 3;

beforeAll(async () => {
  cluster = await ControllerCluster.start();
  await cluster.startController({ revisionLimit: LIMIT });
}, 120_000);

afterAll(async () => {
  await cluster?.stop();
});

const ROLLBACK = 'app.oam.dev/rollback-to-revision';
const SUMMARY = 'app.oam.dev/change-summary';
const image = (d: KubeObject | undefined) => (d?.spec as any)?.template?.spec?.containers?.[0]?.image;
const atRevision = (n: number) => (s: Record<string, any>, app: KubeObject) =>
  s.latestRevision?.revision === n &&
  s.status === 'running' &&
  s.observedGeneration === app.metadata?.generation;

async function revisions(ns: string): Promise<KubeObject[]> {
  const c = await cluster.resource({ apiVersion: 'core.oam.dev/v1beta1', kind: 'ApplicationRevision' });
  const list = await c.list({ namespace: ns, labelSelector: 'app.oam.dev/name=hello' });
  return list.items.sort((a: any, b: any) => a.spec.revision - b.spec.revision);
}

async function revision(ns: string, n: number): Promise<KubeObject> {
  return eventually(
    () => cluster.get('core.oam.dev/v1beta1', 'ApplicationRevision', ns, `hello-v${n}`),
    `ApplicationRevision hello-v${n}`,
  );
}

async function annotate(ns: string, annotations: Record<string, string | null>): Promise<void> {
  const apps = await cluster.resource({ apiVersion: 'core.oam.dev/v1beta1', kind: 'Application' });
  await apps.patch(ns, 'hello', { metadata: { annotations } }, { type: 'merge', fieldManager: 'e2e-user' });
}

async function eventFor(ns: string, reason: string): Promise<any> {
  const events = await cluster.resource({ apiVersion: 'v1', kind: 'Event' });
  return eventually(async () => {
    const list = await events.list({ namespace: ns });
    return list.items.find((e: any) => e.reason === reason && e.involvedObject?.name === 'hello');
  }, `a ${reason} event`);
}

/** A namespace-local TraitDefinition whose only output is a team label on the workload. */
const teamLabel = (ns: string, team: string): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'TraitDefinition',
  metadata: { name: 'team-label', namespace: ns },
  spec: {
    appliesToWorkloads: ['deployments.apps'],
    schematic: { cue: { template: `patch: metadata: labels: team: "${team}"\nparameter: {}\n` } },
  },
});

describe('ApplicationRevisions', () => {
  it('one per change of the inputs, holding the spec and the definitions used; an unchanged input keeps its revision', async () => {
    const ns = await cluster.namespace('rev');
    const app = helloApp(ns);
    await cluster.applyApp(app);
    const first = await cluster.appStatus(ns, 'hello', atRevision(1), 'hello at revision 1');
    const v1 = await revision(ns, 1);
    expect(v1.metadata?.labels?.['app.oam.dev/name']).toBe('hello');
    expect(v1.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Application',
        name: 'hello',
        uid: first.metadata?.uid,
        controller: true,
      }),
    ]);
    expect(v1.metadata?.annotations?.[SUMMARY]).toBe('first revision');
    const spec = v1.spec as any;
    expect(spec.revision).toBe(1);
    expect(spec.application.spec).toEqual(app.spec);
    expect(spec.application.metadata).toMatchObject({ name: 'hello', namespace: ns });
    expect(Object.keys(spec.componentDefinitions)).toEqual(['webservice']);
    expect(Object.keys(spec.traitDefinitions)).toEqual(['scaler']);
    expect(spec.componentDefinitions.webservice.spec.schematic.cue.template).toContain('parameter');
    expect(spec.renderHash).toBe((first.status as any).latestRevision.revisionHash);

    await cluster.applyApp(edit(app, (s) => (s.components[0].properties.image = 'crccheck/hello-world:v2')));
    await cluster.appStatus(ns, 'hello', atRevision(2), 'hello at revision 2');
    expect((await revision(ns, 2)).metadata?.annotations?.[SUMMARY]).toBe(
      'components[0].properties.image: crccheck/hello-world → crccheck/hello-world:v2',
    );

    // The same spec again, and a resync: nothing new.
    await cluster.applyApp(edit(app, (s) => (s.components[0].properties.image = 'crccheck/hello-world:v2')));
    await annotate(ns, { 'example.com/unrelated': 'x' }); // an annotation is an input: a new revision
    await cluster.appStatus(ns, 'hello', atRevision(3), 'hello at revision 3');
    expect((await revision(ns, 3)).metadata?.annotations?.[SUMMARY]).toBe(
      'annotations."example.com/unrelated" added: x',
    );
    cluster.controller!.resync();
    await cluster.appStatus(ns, 'hello', atRevision(3), 'hello still at revision 3');
    expect((await revisions(ns)).map((r) => r.metadata?.name)).toEqual(['hello-v1', 'hello-v2', 'hello-v3']);
  });

  it(`keeps at most --revision-limit (${LIMIT}), deleting the oldest`, async () => {
    const ns = await cluster.namespace('cap');
    for (let i = 1; i <= 6; i++) {
      await cluster.applyApp(
        edit(helloApp(ns), (s) => (s.components[0].properties.image = `crccheck/hello-world:v${i}`)),
      );
      await cluster.appStatus(ns, 'hello', (s) => s.latestRevision?.revision === i, `revision ${i}`);
    }
    const live = 'hello-v6';
    const kept = await eventually(async () => {
      const names = (await revisions(ns)).map((r) => r.metadata!.name!);
      return names.length === LIMIT ? names : undefined;
    }, `${LIMIT} revisions left`);
    expect(kept).toEqual(['hello-v4', 'hello-v5', live]);
  });
});

describe('rollback (annotation app.oam.dev/rollback-to-revision)', () => {
  it('restores revision N exactly, its definitions included, as a new revision, and clears the annotation', async () => {
    const ns = await cluster.namespace('rollback');
    const definitions = await cluster.resource({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'TraitDefinition',
    });
    await definitions.apply(teamLabel(ns, 'blue'), { fieldManager: 'platform-team', force: true });
    const app = edit(helloApp(ns), (s) => s.components[0].traits.push({ type: 'team-label' }));
    await cluster.applyApp(app);
    await cluster.appStatus(ns, 'hello', atRevision(1), 'v1: team blue');
    const v1 = await revision(ns, 1); // read now: the history limit deletes it once v4 is written

    // v2: the definition changed under the app; v3: the app's image changed.
    await definitions.apply(teamLabel(ns, 'green'), { fieldManager: 'platform-team', force: true });
    await cluster.appStatus(ns, 'hello', atRevision(2), 'v2: team green');
    expect((await revision(ns, 2)).metadata?.annotations?.[SUMMARY]).toBe('definition team-label changed');
    await cluster.applyApp(edit(app, (s) => (s.components[0].properties.image = 'crccheck/hello-world:v3')));
    await cluster.appStatus(ns, 'hello', atRevision(3), 'v3: new image');
    const deploymentBefore = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect(deploymentBefore?.metadata?.labels?.team).toBe('green');

    await annotate(ns, { [ROLLBACK]: '1' });
    const rolled = await cluster.appStatus(
      ns,
      'hello',
      (s, a) => atRevision(4)(s, a) && a.metadata?.annotations?.[ROLLBACK] === undefined,
      'the rollback to be done as revision 4',
    );
    const deployment = await cluster.get('apps/v1', 'Deployment', ns, 'hello-web');
    expect(deployment?.metadata?.labels?.team).toBe('blue'); // v1's definition, not the cluster's
    expect(image(deployment)).toBe('crccheck/hello-world');
    expect(deployment?.metadata?.uid).toBe(deploymentBefore?.metadata?.uid);
    expect(rolled.spec).toEqual(app.spec); // the Application shows what runs
    const v4 = await revision(ns, 4);
    expect(v4.metadata?.annotations?.[SUMMARY]).toBe('rollback to v1');
    expect(v4.metadata?.annotations?.['app.oam.dev/rollback-of-revision']).toBe('1');
    expect((v4.spec as any).traitDefinitions['team-label']).toEqual(
      (v1.spec as any).traitDefinitions['team-label'],
    );
    expect((rolled.status as any).conditions).toContainEqual(
      expect.objectContaining({
        type: 'Rollback',
        status: 'True',
        message: 'restored revision 1 as hello-v4',
      }),
    );
    await eventFor(ns, 'RolledBack');

    // Stable: a resync renders v4 again with v1's definitions (the cluster's still says green).
    cluster.controller!.resync();
    await cluster.appStatus(ns, 'hello', atRevision(4), 'still revision 4 after a resync');
    expect((await cluster.get('apps/v1', 'Deployment', ns, 'hello-web'))?.metadata?.labels?.team).toBe(
      'blue',
    );

    // The next edit renders with the cluster's definitions again.
    await cluster.applyApp(edit(app, (s) => (s.components[0].properties.image = 'crccheck/hello-world:v5')));
    await cluster.appStatus(ns, 'hello', atRevision(5), 'v5: edited after the rollback');
    expect((await cluster.get('apps/v1', 'Deployment', ns, 'hello-web'))?.metadata?.labels?.team).toBe(
      'green',
    );
    expect((await revision(ns, 5)).metadata?.annotations?.[SUMMARY]).toBe(
      'components[0].properties.image: crccheck/hello-world → crccheck/hello-world:v5; definition team-label changed',
    );
  });

  it('restores the standalone Component and Trait revision N joined, as N stored them; a pin lasts until that object changes', async () => {
    const ns = await cluster.namespace('parts');
    const definitions = await cluster.resource({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'TraitDefinition',
    });
    await definitions.apply(teamLabel(ns, 'blue'), { fieldManager: 'platform-team', force: true });
    await cluster.applyObject(webComponent(ns, 'api', 'crccheck/hello-world:v1'), 'developer');
    await cluster.applyObject(trait(ns, 'api-team', 'team-label', { component: 'api' }), 'operator');
    await cluster.applyApp({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'hello', namespace: ns },
      spec: { components: [{ name: 'api', componentRef: 'api' }] },
    });
    const deployment = () => cluster.get('apps/v1', 'Deployment', ns, 'api');
    await cluster.appStatus(ns, 'hello', atRevision(1), 'v1: the Component and its Trait');
    const v1 = await revision(ns, 1);
    expect((v1.spec as any).components).toEqual([
      expect.objectContaining({ kind: 'Component', metadata: expect.objectContaining({ name: 'api' }) }),
    ]);
    expect((v1.spec as any).traits).toEqual([
      expect.objectContaining({ kind: 'Trait', metadata: expect.objectContaining({ name: 'api-team' }) }),
    ]);
    const before = await deployment();
    expect(image(before)).toBe('crccheck/hello-world:v1');
    expect(before?.metadata?.labels?.team).toBe('blue');

    // The developer's new image (v2), the platform team's new definition (v3).
    await cluster.applyObject(webComponent(ns, 'api', 'crccheck/hello-world:v2'), 'developer');
    await cluster.appStatus(ns, 'hello', atRevision(2), 'v2: the new image');
    expect((await revision(ns, 2)).metadata?.annotations?.[SUMMARY]).toBe('Component "api" changed');
    await definitions.apply(teamLabel(ns, 'green'), { fieldManager: 'platform-team', force: true });
    await cluster.appStatus(ns, 'hello', atRevision(3), 'v3: the new definition');
    expect(image(await deployment())).toBe('crccheck/hello-world:v2');
    expect((await deployment())?.metadata?.labels?.team).toBe('green');

    await annotate(ns, { [ROLLBACK]: '1' });
    await cluster.appStatus(
      ns,
      'hello',
      (s, a) => atRevision(4)(s, a) && a.metadata?.annotations?.[ROLLBACK] === undefined,
      'the rollback to be done as revision 4',
    );
    const rolled = await deployment();
    expect(image(rolled)).toBe('crccheck/hello-world:v1'); // v1's Component, not the live one
    expect(rolled?.metadata?.labels?.team).toBe('blue'); // v1's definition of v1's Trait
    expect(rolled?.metadata?.uid).toBe(before?.metadata?.uid);
    const v4 = await revision(ns, 4);
    expect(v4.metadata?.annotations?.[SUMMARY]).toBe('rollback to v1');
    expect((v4.spec as any).renderHash).toBe((v1.spec as any).renderHash); // the same inputs as v1
    expect((v4.spec as any).components[0].spec).toEqual((v1.spec as any).components[0].spec);
    expect((v4.spec as any).pinned).toEqual({
      definitions: true,
      components: { api: 2 }, // the live Component's generation when the rollback pinned it
      traits: { 'api-team': 1 },
    });
    // The developer's and the operator's objects are theirs: the rollback does not rewrite them.
    const live = await cluster.get('core.oam.dev/v1beta1', 'Component', ns, 'api');
    expect((live?.spec as any).properties.image).toBe('crccheck/hello-world:v2');

    cluster.controller!.resync();
    await cluster.appStatus(ns, 'hello', atRevision(4), 'still revision 4 after a resync');
    expect(image(await deployment())).toBe('crccheck/hello-world:v1');

    // The developer changes the Component again: its pin ends, the live one joins (v5); the rest stays pinned.
    await cluster.applyObject(webComponent(ns, 'api', 'crccheck/hello-world:v5'), 'developer');
    await cluster.appStatus(ns, 'hello', atRevision(5), 'v5: the Component changed after the rollback');
    expect(image(await deployment())).toBe('crccheck/hello-world:v5');
    expect((await deployment())?.metadata?.labels?.team).toBe('blue');
    const v5 = await revision(ns, 5);
    expect(v5.metadata?.annotations?.[SUMMARY]).toBe('Component "api" changed');
    expect((v5.spec as any).pinned).toEqual({ definitions: true, traits: { 'api-team': 1 } });
  });

  it('a Trait a rollback pins (or leaves out) says so in Applied until the operator changes it', async () => {
    const ns = await cluster.namespace('pinned');
    const labels = (team: string) => trait(ns, 'api-labels', 'labels', { component: 'api' }, { team });
    const applied = (name: string, status: string, reason: string) =>
      cluster.oamStatus(
        'Trait',
        ns,
        name,
        (s, t) =>
          s.observedGeneration === t.metadata?.generation &&
          s.conditions?.some((c: any) => c.type === 'Applied' && c.status === status && c.reason === reason),
        `Trait "${name}" Applied=${status} (${reason})`,
      );
    const deployment = () => cluster.get('apps/v1', 'Deployment', ns, 'api');
    await cluster.applyObject(webComponent(ns, 'api'), 'developer');
    await cluster.applyObject(labels('a'), 'operator');
    await cluster.applyApp({
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name: 'hello', namespace: ns },
      spec: { components: [{ name: 'api', componentRef: 'api' }] },
    });
    await cluster.appStatus(ns, 'hello', atRevision(1), 'v1: team a');
    await applied('api-labels', 'True', 'Applied');
    await cluster.applyObject(labels('b'), 'operator');
    const v2 = await cluster.appStatus(ns, 'hello', atRevision(2), 'v2: team b');
    expect((v2.status as any).joined).toEqual([
      { kind: 'Component', name: 'api', generation: 1 },
      { kind: 'Trait', name: 'api-labels', generation: 2 },
    ]);
    await applied('api-labels', 'True', 'Applied');
    await cluster.applyObject(
      trait(ns, 'api-extra', 'annotations', { component: 'api' }, { extra: 'yes' }),
      'operator',
    );
    await cluster.appStatus(ns, 'hello', atRevision(3), 'v3: the annotations Trait joined');
    expect((await deployment())?.metadata?.annotations?.extra).toBe('yes');

    await annotate(ns, { [ROLLBACK]: '1' });
    const rolled = await cluster.appStatus(
      ns,
      'hello',
      (s, a) => atRevision(4)(s, a) && a.metadata?.annotations?.[ROLLBACK] === undefined,
      'the rollback to be done as revision 4',
    );
    expect((rolled.status as any).joined).toEqual([
      { kind: 'Component', name: 'api', generation: 1, pinned: true },
      { kind: 'Trait', name: 'api-extra', pinned: true },
      { kind: 'Trait', name: 'api-labels', generation: 1, pinned: true },
    ]);
    const d = await deployment();
    expect(d?.metadata?.labels?.team).toBe('a');
    expect(d?.metadata?.annotations?.extra).toBeUndefined();
    const labelsTrait = await applied('api-labels', 'False', 'PinnedByRollback');
    expect((labelsTrait.status as any).conditions.find((c: any) => c.type === 'Applied').message).toBe(
      'the target was rolled back: it renders this Trait as at generation 1 (until the Trait changes)',
    );
    await applied('api-extra', 'False', 'PinnedByRollback');

    // The operator moves forward: that Trait's pin ends (v5), the left-out one stays out.
    await cluster.applyObject(labels('c'), 'operator');
    await cluster.appStatus(ns, 'hello', atRevision(5), 'v5: team c');
    expect((await deployment())?.metadata?.labels?.team).toBe('c');
    await applied('api-labels', 'True', 'Applied');
    await applied('api-extra', 'False', 'PinnedByRollback');
    expect(((await revision(ns, 5)).spec as any).pinned).toEqual({
      definitions: true,
      components: { api: 1 },
      traits: { 'api-extra': 1 },
    });
  });

  it('a rollback to what runs already is a new revision too (history shows every rollback)', async () => {
    const ns = await cluster.namespace('same');
    await cluster.applyApp(helloApp(ns));
    await cluster.appStatus(ns, 'hello', atRevision(1), 'hello at revision 1');
    await annotate(ns, { [ROLLBACK]: 'v1' });
    await cluster.appStatus(
      ns,
      'hello',
      (s, a) => atRevision(2)(s, a) && a.metadata?.annotations?.[ROLLBACK] === undefined,
      'the rollback to be revision 2',
    );
    const v2 = await revision(ns, 2);
    expect(v2.metadata?.annotations?.[SUMMARY]).toBe('rollback to v1');
    expect((v2.spec as any).renderHash).toBe(((await revision(ns, 1)).spec as any).renderHash);
    cluster.controller!.resync();
    await cluster.appStatus(ns, 'hello', atRevision(2), 'still revision 2 after a resync');
    expect((await revisions(ns)).length).toBe(2);
  });

  it('an unknown revision is reported (condition and Warning Event naming the ones there are) and the annotation cleared', async () => {
    const ns = await cluster.namespace('unknown');
    await cluster.applyApp(helloApp(ns));
    await cluster.appStatus(ns, 'hello', atRevision(1), 'hello at revision 1');
    await annotate(ns, { [ROLLBACK]: '7' });
    const reported = await cluster.appStatus(
      ns,
      'hello',
      (s, a) =>
        a.metadata?.annotations?.[ROLLBACK] === undefined &&
        s.conditions?.some((c: any) => c.type === 'Rollback' && c.status === 'False'),
      'the unknown revision to be reported',
    );
    const condition = (reported.status as any).conditions.find((c: any) => c.type === 'Rollback');
    expect(condition).toMatchObject({
      reason: 'UnknownRevision',
      message: 'cannot roll back to revision 7: no such revision (available: 1)',
    });
    expect((reported.status as any).latestRevision.revision).toBe(1);
    expect((await eventFor(ns, 'UnknownRevision')).type).toBe('Warning');
    expect((await revisions(ns)).length).toBe(1);
  });
});
