import { Ajv } from 'ajv';
import { eventually } from '#kube-core';
import { ADMIN, ApiPlane, call } from './harness.js';
import { projectRoot } from '#definitions';
import { ensureBuilt } from '../support/build.js';

// Handlebars templates render in worker threads that run the compiled engine from dist/.
beforeAll(() => ensureBuilt(projectRoot()), 240_000);

/** The REST API's catalog against the embedded plane with the controller (which installs the built-ins). */
let plane: ApiPlane;
let ns: string;
beforeAll(async () => {
  plane = await ApiPlane.start();
  ns = await plane.cluster.namespace('catalog');
});
afterAll(() => plane?.stop());

const get = (path: string) => call(plane.url, 'GET', path, { token: ADMIN });

describe('catalog', () => {
  it('lists the built-in component types with their workload kind and engine', async () => {
    const res = await get('/api/v1/catalog/components');
    expect(res.status).toBe(200);
    const web = res.body.items.find((i: any) => i.name === 'webservice');
    expect(web).toMatchObject({
      kind: 'component',
      namespace: 'vela-system',
      workloadKind: 'Deployment',
      workloadResource: 'deployments.apps',
      engine: 'cue',
      appliesTo: [],
    });
    expect(web.description).not.toBe('');
    expect(res.body.items.map((i: any) => i.name)).toEqual(
      expect.arrayContaining(['webservice', 'worker', 'task', 'cron-task', 'daemon', 'statefulset']),
    );
  });

  it('lists trait types with appliesTo and conflictsWith; ?q= searches names and descriptions', async () => {
    const res = await get('/api/v1/catalog/traits');
    const hpa = res.body.items.find((i: any) => i.name === 'hpa');
    expect(hpa).toMatchObject({ kind: 'trait', conflictsWith: ['cpuscaler'] });
    expect(hpa.appliesTo).toContain('deployments.apps');
    const labels = res.body.items.find((i: any) => i.name === 'labels');
    expect(labels.engine).toBe('handlebars');
    const found = await get('/api/v1/catalog/traits?q=SCAL');
    expect(found.body.items.map((i: any) => i.name)).toEqual(expect.arrayContaining(['scaler', 'cpuscaler']));
    expect(found.body.items.map((i: any) => i.name)).not.toContain('labels');
  });

  it('?component= keeps the traits that apply to that component type', async () => {
    const forWeb = (await get('/api/v1/catalog/traits?component=webservice')).body.items.map(
      (i: any) => i.name,
    );
    expect(forWeb).toEqual(expect.arrayContaining(['hpa', 'scaler', 'labels', 'gateway']));
    const forTask = (await get('/api/v1/catalog/traits?component=task')).body.items.map((i: any) => i.name);
    expect(forTask).toEqual(expect.arrayContaining(['labels', 'env', 'resource']));
    expect(forTask).not.toContain('hpa'); // deployments and statefulsets only
    expect((await get('/api/v1/catalog/traits?component=nope')).status).toBe(404);
  });

  it('?namespace= adds that namespace’s own definitions, which shadow the system’s of the same name', async () => {
    const sys = await plane.cluster.get('core.oam.dev/v1beta1', 'TraitDefinition', 'vela-system', 'labels');
    const own = {
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'TraitDefinition',
      metadata: {
        name: 'labels',
        namespace: ns,
        annotations: { 'definition.oam.dev/description': 'team labels' },
      },
      spec: sys!.spec,
    };
    await (await plane.cluster.resource(own)).create(own);
    await eventually(async () => {
      const res = await get(`/api/v1/catalog/traits?namespace=${ns}&q=team`);
      return res.body.items.length === 1 && res.body.items[0].namespace === ns;
    }, 'the namespace’s own labels trait listed');
    const system = await get('/api/v1/catalog/traits?q=team');
    expect(system.body.items).toEqual([]);
  });

  it('a missing type is 404 problem+json', async () => {
    const res = await get('/api/v1/catalog/components/nope');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, title: 'Not Found' });
    expect(res.body.detail).toMatch(/"nope"/);
  });

  it('every type has a JSON Schema (draft-07) and an example that satisfies it and renders', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const components = (await get('/api/v1/catalog/components')).body.items;
    const traits = (await get('/api/v1/catalog/traits')).body.items;
    // The controller publishes each schema as a ConfigMap; wait for one so that path is the one tested.
    await eventually(
      async () => (await get('/api/v1/catalog/components/webservice')).body.schemaSource === 'configmap',
      'the webservice schema read from its ConfigMap',
    );
    const web = (await get('/api/v1/catalog/components/webservice')).body;
    expect(web.schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(web.schema.properties.image.type).toBe('string');
    expect(web.schema.required).toContain('image');

    const check = async (kind: 'components' | 'traits', name: string) => {
      const res = await get(`/api/v1/catalog/${kind}/${name}`);
      expect([name, res.status]).toEqual([name, 200]);
      const validate = ajv.compile(res.body.schema);
      expect([name, validate(res.body.example), validate.errors ?? null]).toEqual([name, true, null]);
      return res.body;
    };
    for (const c of components) {
      const detail = await check('components', c.name);
      const app = appWith({ name: 'c', type: c.name, properties: detail.example });
      const preview = await call(plane.url, 'POST', `/api/v1/namespaces/${ns}/preview`, {
        token: ADMIN,
        body: app,
      });
      expect([c.name, preview.status, preview.body.errors ?? null]).toEqual([c.name, 200, null]);
    }
    const webExample = web.example;
    for (const t of traits) {
      const detail = await check('traits', t.name);
      expect(t.appliesTo.some((a: string) => a === '*' || a === 'deployments.apps')).toBe(true);
      const app = appWith({
        name: 'c',
        type: 'webservice',
        properties: webExample,
        traits: [{ type: t.name, properties: detail.example }],
      });
      const preview = await call(plane.url, 'POST', `/api/v1/namespaces/${ns}/preview`, {
        token: ADMIN,
        body: app,
      });
      expect([t.name, preview.status, preview.body.errors ?? null]).toEqual([t.name, 200, null]);
    }
  });
});

function appWith(component: Record<string, unknown>) {
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata: { name: 'example' },
    spec: { components: [component] },
  };
}
