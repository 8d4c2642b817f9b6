import type { Application, Component, Definition, Trait } from '#api';
import { InMemoryCatalog, RenderError } from '#renderer';
import { joinApplication, joinComponent, rendererOf } from './join.js';
import type { JoinSources } from './sources.js';
import { applicationTargetKey, componentTargetKey } from './indexes.js';
import { pinnedSources, pinsOf } from './pinned-sources.js';
import { joinedStatus } from './joined-status.js';
import { blamedTraits } from '../render/render.js';
import { appliedCondition } from '../reconcile/trait.reconciler.js';

/** A JSON document the assertions walk into. */
interface Json {
  [key: string]: Json;
}

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

describe('a rollback’s pins laid over the join', () => {
  const at = <T extends Component | Trait>(o: T, generation: number, spec?: Partial<T['spec']>): T =>
    ({ ...o, metadata: { ...o.metadata, generation }, spec: { ...o.spec, ...spec } }) as T;
  const stored = (o: Component | Trait, generation: number) =>
    [
      o.metadata.name!,
      {
        kind: o.kind,
        metadata: { name: o.metadata.name!, generation, creationTimestamp: o.metadata.creationTimestamp },
        spec: o.spec as Record<string, unknown>,
      },
    ] as const;
  const ref = app('hello', '2026-01-01T00:00:00Z', [{ name: 'api', componentRef: 'api' }]);
  const old = { ...component('api'), spec: { type: 'webservice', properties: { image: 'v1' } } } as Component;
  const hpaV1 = trait('api-hpa', 'hpa', '2026-01-01T00:00:00Z', { component: 'api' });

  it('a rollback sees the stored Component and Traits only, and pins each at its live generation', () => {
    const live = sources({
      apps: [ref],
      components: [at(old, 2, { properties: { image: 'v2' } })],
      traits: [
        at(hpaV1, 3, { properties: { max: 9 } }),
        at(trait('late', 'scaler', '2026-01-02T00:00:00Z', { component: 'api' }), 1),
      ],
    });
    const pins = { components: new Map([stored(old, 1)]), traits: new Map([stored(hpaV1, 1)]) };
    const pinned = pinnedSources(live, 'ns', pins, catalog);
    const joined = joinApplication(pinned.sources, ref);
    expect(joined.revisionInputs?.components.api).toMatchObject({ spec: old.spec, generation: 1 });
    expect(Object.keys(joined.revisionInputs!.traits)).toEqual(['api-hpa']); // "late" is left out
    expect(joined.revisionInputs?.traits['api-hpa']).toMatchObject({ spec: hpaV1.spec, generation: 1 });
    expect(pinned.held()).toEqual({ components: { api: 2 }, traits: { 'api-hpa': 3, late: 1 } });
    expect(pinsOf(true, pinned.held())).toEqual({
      definitions: true,
      components: { api: 2 },
      traits: { 'api-hpa': 3, late: 1 },
    });
    expect(joinedStatus(joined.revisionInputs, pinsOf(true, pinned.held()))).toEqual([
      { kind: 'Component', name: 'api', generation: 1, pinned: true },
      { kind: 'Trait', name: 'api-hpa', generation: 1, pinned: true },
      { kind: 'Trait', name: 'late', pinned: true },
    ]);
  });

  it('a pin ends when its object’s generation moves (edited, created, deleted); the others hold', () => {
    const pins = {
      components: new Map([stored(old, 1)]),
      traits: new Map([stored(hpaV1, 1)]),
      at: { components: { api: 2 }, traits: { 'api-hpa': 3, late: 1, gone: 0 } },
    };
    const live = sources({
      apps: [ref],
      components: [at(old, 3, { properties: { image: 'v3' } })], // edited since the rollback
      traits: [
        at(hpaV1, 3, { properties: { max: 9 } }), // unchanged: still pinned to v1's
        at(trait('late', 'scaler', '2026-01-02T00:00:00Z', { component: 'api' }), 1), // unchanged: still out
        at(trait('gone', 'scaler', '2026-01-03T00:00:00Z', { component: 'api' }), 1), // created since
      ],
    });
    const pinned = pinnedSources(live, 'ns', pins, catalog);
    const joined = joinApplication(pinned.sources, ref);
    expect(joined.revisionInputs?.components.api).toMatchObject({ generation: 3 });
    expect((joined.revisionInputs?.components.api.spec as Json).properties.image).toBe('v3');
    expect(joined.revisionInputs?.traits['api-hpa']).toMatchObject({ spec: hpaV1.spec, generation: 1 });
    expect(joined.revisionInputs?.traits.late).toBeUndefined();
    expect(joined.verdicts.find((v) => v.trait.metadata.name === 'gone')?.accepted).toBe(true);
    expect(pinned.held()).toEqual({ components: {}, traits: { 'api-hpa': 3, late: 1 } });
  });
});

describe('a Trait’s Applied condition', () => {
  const t = { metadata: { name: 'api-hpa', generation: 2 } };
  const applied = { type: 'Applied', status: 'True', reason: 'Applied', message: '3 resources' } as const;
  const target = (joined: unknown[], condition: Record<string, string> = applied) =>
    ({ conditions: [condition], joined }) as never;

  it('mirrors the target’s apply only once its last render included this Trait at this generation', () => {
    expect(appliedCondition(t, target([]))).toMatchObject({ status: 'Unknown', reason: 'Pending' });
    expect(appliedCondition(t, target([{ kind: 'Trait', name: 'api-hpa', generation: 1 }]))).toMatchObject({
      status: 'Unknown',
      reason: 'Pending',
      message: 'the target has not rendered generation 2 of this Trait yet',
    });
    expect(appliedCondition(t, target([{ kind: 'Trait', name: 'api-hpa', generation: 2 }]))).toMatchObject({
      status: 'True',
      message: '3 resources',
    });
    expect(
      appliedCondition(
        t,
        target([{ kind: 'Trait', name: 'api-hpa', generation: 1 }], {
          type: 'Applied',
          status: 'False',
          reason: 'RenderFailed',
        }),
      ),
    ).toMatchObject({ status: 'False', reason: 'RenderFailed' });
  });

  it('says when a rollback pins an older version of it, or leaves it out', () => {
    expect(
      appliedCondition(t, target([{ kind: 'Trait', name: 'api-hpa', generation: 1, pinned: true }])),
    ).toMatchObject({ status: 'False', reason: 'PinnedByRollback' });
    expect(appliedCondition(t, target([{ kind: 'Trait', name: 'api-hpa', pinned: true }]))).toMatchObject({
      status: 'False',
      reason: 'PinnedByRollback',
    });
    expect(
      appliedCondition(t, target([{ kind: 'Trait', name: 'api-hpa', generation: 2, pinned: true }])),
    ).toMatchObject({ status: 'True' });
  });
});

describe('a standalone Trait the render blames', () => {
  it('is found by the location of the errors, and rejected by itself on the next join', () => {
    const errors = [
      new RenderError('expected string, got 5', {
        object: 'Trait "notes" (annotations)',
        path: 'properties.note',
      }),
      new RenderError('bad', { object: 'Application "hello"', subject: 'components[0] "api" (webservice)' }),
    ];
    const blamed = blamedTraits(errors, ['notes', 'notes-2']);
    expect([...blamed.keys()]).toEqual(['notes']);
    expect(blamed.get('notes')).toContain('properties.note: expected string, got 5');

    const api = component('api');
    const notes = trait('notes', 'scaler', '2026-01-01T00:00:00Z', { component: 'api' });
    const joined = joinComponent(sources({ components: [api], traits: [notes] }), api, blamed);
    expect(joined.objects.map((o) => o.kind)).toEqual([]);
    expect(joined.verdicts[0]).toMatchObject({ accepted: false, reason: 'InvalidProperties' });
    expect(joined.conditions[0]).toMatchObject({ type: 'Traits', status: 'False', reason: 'TraitsRejected' });
  });
});
