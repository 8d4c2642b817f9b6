import { eventually, useTarget } from './target.js';

/** Server-side apply: field ownership per manager, conflicts, force, removal of fields no longer applied. */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('apply');
});

const APPLY = 'application/apply-patch+yaml';
const cm = (name: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;

function configMap(name: string, data: Record<string, string>): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data };
}

async function apply(
  path: string,
  body: object,
  manager: string,
  extra = '',
): Promise<{ status: number; body: any }> {
  // JSON is YAML: the body goes as application/apply-patch+yaml like kubectl's.
  const res = await target().http.patch(
    `${path}?fieldManager=${manager}${extra}`,
    APPLY,
    JSON.stringify(body),
  );
  return { status: res.status, body: res.json() };
}

const owners = (obj: any) =>
  Object.fromEntries(
    obj.metadata.managedFields.map((m: any) => [
      `${m.manager}/${m.operation}`,
      Object.keys(m.fieldsV1?.['f:data'] ?? {}).sort(),
    ]),
  );

describe('server-side apply', () => {
  it('creates a missing object (201) and records the manager in managedFields', async () => {
    const res = await apply(cm('one'), configMap('one', { k: 'v' }), 'mgr-a');
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ k: 'v' });
    expect(res.body.metadata.managedFields).toEqual([
      {
        manager: 'mgr-a',
        operation: 'Apply',
        apiVersion: 'v1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:k': {} } },
      },
    ]);
    const again = await apply(cm('one'), configMap('one', { k: 'v' }), 'mgr-a');
    expect(again.status).toBe(200);
    // Applying the same intent again changes nothing.
    expect(again.body.metadata.resourceVersion).toBe(res.body.metadata.resourceVersion);
  });

  it('two managers own disjoint fields side by side', async () => {
    await apply(cm('two'), configMap('two', { a: '1' }), 'mgr-a');
    const res = await apply(cm('two'), configMap('two', { b: '2' }), 'mgr-b');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ a: '1', b: '2' });
    expect(owners(res.body)).toEqual({ 'mgr-a/Apply': ['f:a'], 'mgr-b/Apply': ['f:b'] });
  });

  it('a different value for a field another manager owns is 409 naming the field and the manager', async () => {
    await apply(cm('conflict'), configMap('conflict', { k: 'a', other: 'x' }), 'mgr-a');
    const res = await apply(cm('conflict'), configMap('conflict', { k: 'b' }), 'mgr-b');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "mgr-a": .data.k',
      reason: 'Conflict',
      details: {
        causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "mgr-a"', field: '.data.k' }],
      },
      code: 409,
    });
    expect((await target().http.get(cm('conflict'))).json().data).toEqual({ k: 'a', other: 'x' });
  });

  it('several conflicts are listed one per line', async () => {
    await apply(cm('conflicts'), configMap('conflicts', { k: 'a', l: 'a' }), 'mgr-a');
    const res = await apply(cm('conflicts'), configMap('conflicts', { k: 'b', l: 'b' }), 'mgr-b');
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "mgr-a":\n- .data.k\n- .data.l',
    );
    expect(res.body.details.causes.map((c: any) => c.field)).toEqual(['.data.k', '.data.l']);
  });

  it('the same value is shared ownership, not a conflict', async () => {
    await apply(cm('shared'), configMap('shared', { k: 'same' }), 'mgr-a');
    const res = await apply(cm('shared'), configMap('shared', { k: 'same' }), 'mgr-b');
    expect(res.status).toBe(200);
    expect(owners(res.body)).toEqual({ 'mgr-a/Apply': ['f:k'], 'mgr-b/Apply': ['f:k'] });
    // One co-owner stopping to apply it leaves the field with the other.
    const dropped = await apply(cm('shared'), configMap('shared', {}), 'mgr-a');
    expect(dropped.body.data).toEqual({ k: 'same' });
  });

  it('force=true takes the field over from the other manager', async () => {
    await apply(cm('force'), configMap('force', { k: 'a', keep: 'a' }), 'mgr-a');
    const res = await apply(cm('force'), configMap('force', { k: 'b' }), 'mgr-b', '&force=true');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ k: 'b', keep: 'a' });
    expect(owners(res.body)).toEqual({ 'mgr-a/Apply': ['f:keep'], 'mgr-b/Apply': ['f:k'] });
  });

  it('a field the sole owner stops applying is removed', async () => {
    await apply(cm('remove'), configMap('remove', { keep: '1', drop: '2' }), 'mgr-a');
    const res = await apply(cm('remove'), configMap('remove', { keep: '1' }), 'mgr-a');
    expect(res.body.data).toEqual({ keep: '1' });
  });

  it('fields set by an update belong to that manager and conflict with "using v1"', async () => {
    await apply(cm('upd'), configMap('upd', { a: '1' }), 'mgr-a');
    const patched = await target().http.patch(
      `${cm('upd')}?fieldManager=editor`,
      'application/merge-patch+json',
      {
        data: { b: '2' },
      },
    );
    expect(owners(patched.json())).toEqual({ 'mgr-a/Apply': ['f:a'], 'editor/Update': ['f:b'] });
    const res = await apply(cm('upd'), configMap('upd', { a: '1', b: '3' }), 'mgr-a');
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Apply failed with 1 conflict: conflict with "editor" using v1: .data.b');
  });

  it('merges containers by name and owns only the applied fields of a Deployment', async () => {
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    const base = (containers: object[]) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers } },
      },
    });
    const first = await apply(path, base([{ name: 'main', image: 'main:1' }]), 'ctrl');
    expect(first.status).toBe(201);
    const side = await apply(path, base([{ name: 'side', image: 'side:1' }]), 'sidecar-injector');
    expect(side.status).toBe(200);
    expect(side.body.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`)).toEqual([
      'main=main:1',
      'side=side:1',
    ]);
    const ctrl = side.body.metadata.managedFields.find((m: any) => m.manager === 'ctrl');
    const containers = ctrl.fieldsV1['f:spec']['f:template']['f:spec']['f:containers'];
    expect(Object.keys(containers)).toEqual(['k:{"name":"main"}']);
    // Defaults the server filled in (replicas, strategy) are nobody's: the applier owns what it sent.
    expect(ctrl.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
  });

  it('dryRun=All applies nothing', async () => {
    const res = await apply(cm('dry'), configMap('dry', { k: 'v' }), 'mgr-a', '&dryRun=All');
    expect(res.status).toBe(201);
    expect((await target().http.get(cm('dry'))).status).toBe(404);
  });

  it('without fieldManager it is 422 Invalid', async () => {
    const res = await target().http.patch(
      cm('no-manager'),
      APPLY,
      JSON.stringify(configMap('no-manager', {})),
    );
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      reason: 'Invalid',
      message:
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
      details: { causes: [{ reason: 'FieldValueRequired', field: 'fieldManager' }] },
    });
  });

  it('a body of another kind is 400 BadRequest', async () => {
    const res = await apply(
      cm('kind'),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'kind' } },
      'mgr-a',
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      reason: 'BadRequest',
      message: 'invalid object type: /v1, Kind=Secret',
    });
  });
});

describe('server-side apply of fields the schema does not declare', () => {
  const deploymentsPath = (name: string) => `/apis/apps/v1/namespaces/${ns}/deployments/${name}`;
  function deployment(name: string, podSpec: object = {}, container: object = {}): object {
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { ...podSpec, containers: [{ name: 'app', image: 'nginx', ...container }] },
        },
      },
    };
  }
  /** SMD cannot make a typed object of it: a bare 500 (no reason) naming the object as sent and the typed path. */
  const undeclared = (object: string, path: string) => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `failed to create typed patch object (${object}): ${path}: field not declared in schema`,
    code: 500,
  });

  it.each(['', '&fieldValidation=Strict', '&fieldValidation=Warn', '&fieldValidation=Ignore'])(
    'refuses a new Deployment whatever fieldValidation says (%s), and stores nothing',
    async (fieldValidation) => {
      const res = await apply(
        deploymentsPath('unknown-new'),
        deployment('unknown-new', { foo: 1 }),
        'trait',
        fieldValidation,
      );
      expect(res.status).toBe(500);
      expect(res.body).toEqual(
        undeclared('/unknown-new; apps/v1, Kind=Deployment', '.spec.template.spec.foo'),
      );
      expect((await target().http.get(deploymentsPath('unknown-new'))).status).toBe(404);
    },
  );

  it('refuses the change to an existing Deployment, also in a dry run, and leaves it as it was', async () => {
    const created = await apply(deploymentsPath('unknown-live'), deployment('unknown-live'), 'trait');
    expect(created.status).toBe(201);
    for (const dryRun of ['', '&dryRun=All']) {
      const res = await apply(
        deploymentsPath('unknown-live'),
        deployment('unknown-live', {}, { foo: 1 }),
        'trait',
        dryRun,
      );
      expect(res.status).toBe(500);
      expect(res.body).toEqual(
        undeclared(
          '/unknown-live; apps/v1, Kind=Deployment',
          '.spec.template.spec.containers[name="app"].foo',
        ),
      );
    }
    // Its controller writes status meanwhile; the spec is the one applied first.
    const live = (await target().http.get(deploymentsPath('unknown-live'))).json();
    expect(live.metadata.generation).toBe(1);
    expect(live.spec.template.spec.containers).toEqual(created.body.spec.template.spec.containers);
  });

  it('names the metadata field and the top-level field of a ConfigMap, with the namespace as sent', async () => {
    const meta = await apply(cm('unknown-meta'), { ...configMap('unknown-meta', {}), foo: 1 }, 'trait');
    expect(meta.body).toEqual(undeclared('/unknown-meta; /v1, Kind=ConfigMap', '.foo'));
    const body = configMap('unknown-meta', {}) as { metadata: object };
    const named = await apply(
      cm('unknown-meta'),
      { ...body, metadata: { ...body.metadata, namespace: ns, foo: 'x' } },
      'trait',
    );
    expect(named.status).toBe(500);
    expect(named.body).toEqual(undeclared(`${ns}/unknown-meta; /v1, Kind=ConfigMap`, '.metadata.foo'));
  });

  it('a create or merge patch with the same field drops it with a warning instead', async () => {
    const res = await target().http.patch(deploymentsPath('unknown-live'), 'application/merge-patch+json', {
      spec: { template: { spec: { foo: 1 } } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.warning).toBe('299 - "unknown field \\"spec.template.spec.foo\\""');
    expect(res.json().spec.template.spec.foo).toBeUndefined();
  });
});

describe('an object whose managedFields were reset', () => {
  it('stays without them through updates; the first apply gives its other fields to before-first-apply', async () => {
    const http = target().http;
    await http.post(`/api/v1/namespaces/${ns}/configmaps`, configMap('reset', { a: '1' }));
    const reset = await http.patch(cm('reset'), 'application/merge-patch+json', {
      metadata: { managedFields: [{}] },
    });
    expect(reset.json().metadata.managedFields).toBeUndefined();
    const updated = await http.patch(cm('reset'), 'application/merge-patch+json', { data: { b: '2' } });
    expect(updated.json().data).toEqual({ a: '1', b: '2' });
    expect(updated.json().metadata.managedFields).toBeUndefined();
    const applied = await apply(cm('reset'), configMap('reset', { c: '3' }), 'mgr-a');
    expect(owners(applied.body)).toEqual({
      'mgr-a/Apply': ['f:c'],
      'before-first-apply/Update': ['.', 'f:a', 'f:b'],
    });
  });
});

describe('server-side apply of a custom resource with keyed lists', () => {
  let things: string;
  beforeAll(async () => {
    const t = target();
    const group = `${t.unique('things')}.conformance.example.com`;
    const item = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, port: { type: 'integer', default: 80 }, v: { type: 'string' } },
    };
    const created = await t.http.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `things.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      items: {
                        type: 'array',
                        'x-kubernetes-list-type': 'map',
                        'x-kubernetes-list-map-keys': ['name', 'port'],
                        items: item,
                      },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    });
    expect(created.status).toBe(201);
    t.defer(async () => {
      await t.http.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.${group}`);
    });
    await eventually(
      async () => (await t.http.get(`/apis/${group}/v1`)).status === 200 || undefined,
      'Things served',
    );
    things = `/apis/${group}/v1/namespaces/${ns}/things`;
  }, 30_000);

  const thing = (items: object[]) => ({
    apiVersion: things.split('/').slice(2, 4).join('/'),
    kind: 'Thing',
    metadata: { name: 'x' },
    spec: { items },
  });

  it('merges the items two managers apply by their keys, each owning its own', async () => {
    await apply(`${things}/x`, thing([{ name: 'one', v: '1' }]), 'mgr-a');
    const res = await apply(`${things}/x`, thing([{ name: 'two', port: 81, v: '2' }]), 'mgr-b');
    expect(res.status).toBe(200);
    expect(res.body.spec.items).toEqual([
      { name: 'one', port: 80, v: '1' },
      { name: 'two', port: 81, v: '2' },
    ]);
    const fields = Object.fromEntries(
      res.body.metadata.managedFields.map((m: any) => [
        m.manager,
        Object.keys(m.fieldsV1['f:spec']['f:items']),
      ]),
    );
    expect(fields).toEqual({
      'mgr-a': ['k:{"name":"one","port":80}'],
      'mgr-b': ['k:{"name":"two","port":81}'],
    });
  });

  it('names an undeclared field of an item by the item’s keys', async () => {
    const res = await apply(`${things}/x`, thing([{ name: 'one', v: '1', foo: 1 }]), 'mgr-a');
    expect(res.status).toBe(500);
    expect(res.body.message).toBe(
      `failed to create typed patch object (/x; ${thing([]).apiVersion}, Kind=Thing): .spec.items[name="one",port=80].foo: field not declared in schema`,
    );
  });
});
