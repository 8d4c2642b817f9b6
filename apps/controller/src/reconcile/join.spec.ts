import type { Application, Component, Definition, Trait } from '#api';
import { InMemoryCatalog } from '#renderer';
import { joinApplication, joinComponent, rendererOf, type JoinSources } from './join.js';
import { applicationTargetKey, componentTargetKey } from './oam-indexes.js';

const meta = (name: string, created: string, uid = name) => ({
  name,
  namespace: 'ns',
  uid,
  creationTimestamp: created,
});
const definition = (kind: string, name: string, spec: Record<string, unknown>) =>
  ({
    apiVersion: 'core.oam.dev/v1beta1',
    kind,
    metadata: { name, namespace: 'vela-system' },
    spec,
  }) as Definition;
const catalog = new InMemoryCatalog([
  [
    definition('ComponentDefinition', 'webservice', {
      workload: { definition: { apiVersion: 'apps/v1', kind: 'Deployment' } },
    }),
    definition('ComponentDefinition', 'task', {
      workload: { definition: { apiVersion: 'batch/v1', kind: 'Job' } },
    }),
    definition('TraitDefinition', 'hpa', {
      appliesToWorkloads: ['deployments.apps'],
      conflictsWith: ['cpuscaler'],
    }),
    definition('TraitDefinition', 'cpuscaler', { appliesToWorkloads: ['deployments.apps'] }),
    definition('TraitDefinition', 'scaler', {}),
  ],
]);
const component = (name: string, type = 'webservice'): Component =>
  ({
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Component',
    metadata: meta(name, '2026-01-01T00:00:00Z'),
    spec: { type },
  }) as Component;
const trait = (name: string, type: string, created: string, target: Trait['spec']['target']): Trait =>
  ({
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Trait',
    metadata: meta(name, created),
    spec: { type, target },
  }) as Trait;
const app = (name: string, created: string, components: Application['spec']['components']): Application =>
  ({
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata: meta(name, created),
    spec: { components },
  }) as Application;

function sources(objects: { components?: Component[]; apps?: Application[]; traits?: Trait[] }): JoinSources {
  const key = (t: Trait) =>
    t.spec.target.application
      ? [
          applicationTargetKey('ns', t.spec.target.application),
          applicationTargetKey('ns', t.spec.target.application, t.spec.target.component),
        ]
      : [componentTargetKey('ns', t.spec.target.component)];
  return {
    catalog,
    component: (_, n) => objects.components?.find((c) => c.metadata.name === n),
    application: (_, n) => objects.apps?.find((a) => a.metadata.name === n),
    trait: (_, n) => objects.traits?.find((t) => t.metadata.name === n),
    applicationsReferencing: (_, c) =>
      (objects.apps ?? []).filter((a) => a.spec.components.some((e) => e.componentRef === c)),
    traitsTargeting: (k) => (objects.traits ?? []).filter((t) => key(t).includes(k)),
  };
}

describe('the join of Components and Traits', () => {
  it('the oldest live Application renders a Component (creation time, then name), else the Component itself', () => {
    const api = component('api');
    const ref = [{ name: 'api', componentRef: 'api' }];
    const younger = app('a-young', '2026-01-02T00:00:00Z', ref);
    const older = app('z-old', '2026-01-01T00:00:00Z', ref);
    const tie = app('b-tie', '2026-01-01T00:00:00Z', ref);
    expect(rendererOf(sources({ components: [api] }), 'ns', 'api')).toMatchObject({ kind: 'Component' });
    const src = sources({ components: [api], apps: [younger, older, tie] });
    expect(rendererOf(src, 'ns', 'api')).toMatchObject({ kind: 'Application', app: tie, entry: 'api' });
    const deleting = { ...tie, metadata: { ...tie.metadata, deletionTimestamp: '2026-01-03T00:00:00Z' } };
    expect(
      rendererOf(sources({ components: [api], apps: [younger, older, deleting] }), 'ns', 'api'),
    ).toMatchObject({ app: older });

    const joined = joinApplication(src, younger);
    expect((joined.owner as Application).spec.components).toEqual([]);
    expect(joined.conditions).toEqual([
      expect.objectContaining({
        type: 'ComponentRefs',
        status: 'False',
        message: 'Component "api" is rendered by Application "b-tie" (the older reference)',
      }),
    ]);
    expect(joinApplication(src, tie).fromComponents).toEqual(new Map([['api', 'api']]));
  });

  it('judges Traits oldest first: not applicable, conflicting, same type; accepted ones join', () => {
    const target = { component: 'api' };
    const traits = [
      trait('hpa-1', 'hpa', '2026-01-01T00:00:01Z', target),
      trait('cpu', 'cpuscaler', '2026-01-01T00:00:02Z', target),
      trait('hpa-2', 'hpa', '2026-01-01T00:00:03Z', target),
      trait('nope', 'nothing', '2026-01-01T00:00:04Z', target),
    ];
    const joined = joinComponent(sources({ components: [component('api')], traits }), component('api'));
    expect(joined.verdicts.map((v) => [v.trait.metadata.name, v.reason])).toEqual([
      ['hpa-1', 'Accepted'],
      ['cpu', 'Conflict'],
      ['hpa-2', 'Conflict'],
      ['nope', 'UnknownType'],
    ]);
    expect(joined.objects.map((o) => o.object.metadata.name)).toEqual(['hpa-1']);
    expect(joined.conditions[0]).toMatchObject({ type: 'Traits', status: 'False', reason: 'TraitsRejected' });

    const job = component('batch', 'task');
    const onJob = joinComponent(
      sources({
        components: [job],
        traits: [trait('x', 'hpa', '2026-01-01T00:00:01Z', { component: 'batch' })],
      }),
      job,
    );
    expect(onJob.verdicts[0]).toMatchObject({ reason: 'NotApplicable', accepted: false });
  });

  it('a standalone Trait overrides an inline trait of its type; a Trait aimed at a missing component is reported', () => {
    const shop = app('shop', '2026-01-01T00:00:00Z', [
      {
        name: 'api',
        type: 'webservice',
        traits: [{ type: 'scaler', properties: { replicas: 2 } }, { type: 'hpa' }],
      },
    ]);
    const traits = [
      trait('ops', 'scaler', '2026-01-01T00:00:01Z', { component: 'api', application: 'shop' }),
      trait('typo', 'scaler', '2026-01-01T00:00:01Z', { component: 'apj', application: 'shop' }),
    ];
    const joined = joinApplication(sources({ apps: [shop], traits }), shop);
    expect((joined.owner as Application).spec.components[0].traits).toEqual([{ type: 'hpa' }]);
    expect(joined.conditions).toEqual([
      expect.objectContaining({
        type: 'Traits',
        status: 'False',
        message: 'Trait "typo": no component "apj" in this Application',
      }),
      expect.objectContaining({
        type: 'InlineTraitsOverridden',
        message: 'components "api" traits[0] (scaler) is overridden by Trait "ops"',
      }),
    ]);
    expect(shop.spec.components[0].traits).toHaveLength(2); // the cached object is not touched
  });
});
