import { createWidgetCrd, deleteWidgetCrd, widget, widgetCrdBody, type WidgetCrd } from './crd-fixture.js';
import { eventually, useTarget } from './target.js';

/** CustomResourceDefinitions: served at once, validated, pruned, defaulted, printed, deleted with their objects. */
const target = useTarget();
let ns: string;
let crd: WidgetCrd;

beforeAll(async () => {
  ns = await target().namespace('crd');
  crd = await createWidgetCrd(target());
  target().defer(() => deleteWidgetCrd(target(), crd));
}, 30_000);

describe('CRD', () => {
  it('appears in discovery with its names, verbs and subresources', async () => {
    const groups = (await target().http.get('/apis')).json().groups;
    expect(groups.find((g: any) => g.name === crd.group)).toEqual({
      name: crd.group,
      versions: [{ groupVersion: `${crd.group}/v1`, version: 'v1' }],
      preferredVersion: { groupVersion: `${crd.group}/v1`, version: 'v1' },
    });
    const list = (await target().http.get(`/apis/${crd.group}/v1`)).json();
    const byName = new Map<string, any>(list.resources.map((r: any) => [r.name, r]));
    expect(byName.get('widgets')).toMatchObject({
      singularName: 'widget',
      namespaced: true,
      kind: 'Widget',
      shortNames: ['wdg'],
      categories: ['all'],
    });
    expect([...byName.get('widgets').verbs].sort()).toEqual(
      ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'].sort(),
    );
    expect(byName.get('widgets/status')).toMatchObject({ kind: 'Widget', verbs: ['get', 'patch', 'update'] });
    expect(byName.get('widgets/scale')).toMatchObject({ kind: 'Scale', group: 'autoscaling', version: 'v1' });
  });

  it('publishes its schema in /openapi/v3 for kubectl explain', async () => {
    const doc: any = await eventually(async () => {
      const res = await target().http.get(`/openapi/v3/apis/${crd.group}/v1`);
      return res.status === 200 ? res.json() : undefined;
    }, `/openapi/v3/apis/${crd.group}/v1 to be served`);
    const schema: any = Object.values(doc.components.schemas).find((s: any) =>
      (s['x-kubernetes-group-version-kind'] ?? []).some((g: any) => g.kind === 'Widget'),
    );
    expect(schema.properties.spec.properties.color).toMatchObject({ type: 'string', enum: ['red', 'blue'] });
    expect(schema.properties.spec.properties.size).toMatchObject({ type: 'integer', default: 3 });
    const root = (await target().http.get('/openapi/v3')).json();
    expect(root.paths[`apis/${crd.group}/v1`].serverRelativeURL).toMatch(
      new RegExp(`^/openapi/v3/apis/${crd.group.replace(/\./g, '\\.')}/v1\\?hash=[0-9A-F]+$`),
    );
  });

  it('is Established with accepted names in its status', async () => {
    const obj = await target().ext.readCustomResourceDefinition({ name: crd.crdName });
    const conditions = Object.fromEntries((obj.status?.conditions ?? []).map((c) => [c.type, c.status]));
    expect(conditions).toMatchObject({ Established: 'True', NamesAccepted: 'True' });
    expect(obj.status?.acceptedNames).toMatchObject({ kind: 'Widget', plural: 'widgets' });
  });

  it('serves objects through the typed custom objects client', async () => {
    const custom = target().custom;
    const created: any = await custom.createNamespacedCustomObject({
      group: crd.group,
      version: 'v1',
      namespace: ns,
      plural: 'widgets',
      body: widget('via-client', { color: 'blue' }, crd.group),
    });
    expect(created.metadata.generation).toBe(1);
    const list: any = await custom.listNamespacedCustomObject({
      group: crd.group,
      version: 'v1',
      namespace: ns,
      plural: 'widgets',
    });
    expect(list.kind).toBe('WidgetList');
    expect(list.items.map((i: any) => i.metadata.name)).toContain('via-client');
  });

  it('validates against the schema: 422 Invalid with one cause per field', async () => {
    const res = await target().http.post(
      crd.path(ns),
      widget('bad', { color: 'green', size: 20, name: 'A1' }, crd.group),
    );
    expect(res.status).toBe(422);
    const body = res.json();
    expect(body).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      details: { name: 'bad', group: crd.group, kind: 'Widget' },
    });
    expect(body.message.startsWith(`Widget.${crd.group} "bad" is invalid: [`)).toBe(true);
    const causes = [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "A1": spec.name in body should match '^[a-z]+$'`,
        field: 'spec.name',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 20: spec.size in body should be less than or equal to 10',
        field: 'spec.size',
      },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "green": supported values: "red", "blue"',
        field: 'spec.color',
      },
    ];
    expect(body.details.causes).toHaveLength(3);
    expect(body.details.causes).toEqual(expect.arrayContaining(causes));
    for (const c of causes) expect(body.message).toContain(`${c.field}: ${c.message}`);
    expect((await target().http.get(crd.path(ns, 'bad'))).status).toBe(404);
  });

  it('reports type errors and missing required fields', async () => {
    const res = await target().http.post(crd.path(ns), widget('bad2', { size: 'x' }, crd.group));
    expect(res.status).toBe(422);
    expect(res.json().details.causes).toEqual(
      expect.arrayContaining([
        {
          reason: 'FieldValueTypeInvalid',
          message: 'Invalid value: "string": spec.size in body must be of type integer: "string"',
          field: 'spec.size',
        },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.color' },
      ]),
    );
  });

  it('prunes unknown fields, keeps preserve-unknown-fields subtrees, applies defaults', async () => {
    const res = await target().http.post(crd.path(ns), {
      ...widget('pruned', { color: 'red', unknown: 1, free: { any: { thing: 1 } } }, crd.group),
      extra: 1,
    });
    expect(res.status).toBe(201);
    const obj = res.json();
    expect(obj.spec).toEqual({ color: 'red', size: 3, replicas: 1, free: { any: { thing: 1 } } });
    expect(obj.extra).toBeUndefined();
    expect((await target().http.get(crd.path(ns, 'pruned'))).json().spec).toEqual(obj.spec);
  });

  it('fieldValidation=Strict refuses unknown fields with 400 naming them', async () => {
    const res = await target().http.post(`${crd.path(ns)}?fieldValidation=Strict`, {
      ...widget('strict', { color: 'red', unknown: 1 }, crd.group),
      extra: 1,
    });
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'BadRequest',
      message:
        'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "extra", unknown field "spec.unknown"',
    });
  });

  it('server-side apply refuses a field the structural schema does not declare, whatever fieldValidation says', async () => {
    for (const fieldValidation of ['', '&fieldValidation=Ignore']) {
      const res = await target().http.patch(
        `${crd.path(ns, 'applied')}?fieldManager=trait${fieldValidation}`,
        'application/apply-patch+yaml',
        widget('applied', { color: 'red', unknown: 1 }, crd.group),
      );
      expect(res.status).toBe(500);
      expect(res.json()).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `failed to create typed patch object (/applied; ${crd.group}/v1, Kind=Widget): .spec.unknown: field not declared in schema`,
        code: 500,
      });
    }
    expect((await target().http.get(crd.path(ns, 'applied'))).status).toBe(404);
    // Below x-kubernetes-preserve-unknown-fields anything goes.
    const free = await target().http.patch(
      `${crd.path(ns, 'applied')}?fieldManager=trait`,
      'application/apply-patch+yaml',
      widget('applied', { color: 'red', free: { any: { thing: 1 } } }, crd.group),
    );
    expect(free.status).toBe(201);
    expect(free.json().spec.free).toEqual({ any: { thing: 1 } });
  });

  it('prints additionalPrinterColumns in Table output', async () => {
    await target().http.post(crd.path(ns), widget('printed', { color: 'blue', size: 7 }, crd.group));
    const res = await target().http.get(`${crd.path(ns)}?fieldSelector=metadata.name%3Dprinted`, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    const table = res.json();
    expect(table.columnDefinitions.map((c: any) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Color', 'string', 0],
      ['Size', 'integer', 0],
      ['Phase', 'string', 1],
      ['Age', 'date', 0],
    ]);
    expect(table.columnDefinitions[1].description).toBe(
      'Custom resource definition column (in JSONPath format): .spec.color',
    );
    const [name, color, size, phase, age] = table.rows[0].cells;
    expect([name, color, size, phase]).toEqual(['printed', 'blue', 7, null]);
    expect(age).toMatch(/^\d+s$/);
  });

  it('deleting the CRD deletes its objects and stops serving the group', async () => {
    const own = await createWidgetCrd(target());
    target().defer(() => deleteWidgetCrd(target(), own));
    await target().http.post(own.path(ns), widget('doomed', { color: 'red' }, own.group));
    await deleteWidgetCrd(target(), own);
    await eventually(
      async () =>
        (await target().http.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${own.crdName}`))
          .status === 404
          ? true
          : undefined,
      `CRD ${own.crdName} to be gone`,
      20_000,
    );
    expect((await target().http.get(own.path(ns, 'doomed'))).status).toBe(404);
    const groups = (await target().http.get('/apis')).json().groups.map((g: any) => g.name);
    expect(groups).not.toContain(own.group);
    // Re-creating the CRD must not resurrect the old objects.
    const again = await target().http.post(
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      widgetCrdBody(own.group),
    );
    expect(again.status).toBe(201);
    await eventually(
      async () => ((await target().http.get(own.path(ns))).status === 200 ? true : undefined),
      'recreated CRD to serve',
    );
    expect((await target().http.get(own.path(ns))).json().items).toEqual([]);
    await deleteWidgetCrd(target(), own);
  }, 40_000);
});
