import { eventually } from '#kube-core';
import { helloApp } from '../controller/harness.js';
import { ADMIN, ApiPlane, call, readEvents } from './harness.js';

/** Applications through the REST API, with the controller reconciling them on the embedded plane. */
let plane: ApiPlane;
let ns: string;
beforeAll(async () => {
  plane = await ApiPlane.start();
  ns = await plane.cluster.namespace('apps');
});
afterAll(() => plane?.stop());

const api = (method: string, path: string, body?: unknown, contentType?: string) =>
  call(plane.url, method, `/api/v1/namespaces/${ns}${path}`, { token: ADMIN, body, contentType });

function hello(name: string) {
  const app = helloApp(ns, name);
  delete app.metadata!.namespace;
  return app;
}

describe('applications', () => {
  it('create → the namespace watch stream shows it becoming healthy → status and resources reflect it', async () => {
    const watching = readEvents(
      `${plane.url}/api/v1/namespaces/${ns}/applications/watch`,
      ADMIN,
      (e) => e.data.application.name === 'web' && e.data.application.healthy === true,
      'application "web" healthy',
    );
    const created = await api('POST', '/applications', hello('web'));
    expect(created.status).toBe(201);
    expect(created.body.metadata).toMatchObject({ name: 'web', namespace: ns });
    const events = await watching;
    expect(events.every((e) => ['ADDED', 'MODIFIED'].includes(e.type))).toBe(true);
    expect(events.at(-1)!.data.application).toMatchObject({
      phase: 'running',
      components: [{ name: 'hello-web', type: 'webservice', healthy: true, traits: [{ type: 'scaler' }] }],
    });

    const status = await api('GET', '/applications/web/status');
    expect(status.status).toBe(200);
    expect(status.body.components[0].objects).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'Deployment', name: 'hello-web' })]),
    );
    const resources = await api('GET', '/applications/web/resources');
    const deployment = resources.body.items.find((i: any) => i.ref.kind === 'Deployment');
    expect(deployment.object.spec.replicas).toBe(2);
    expect(deployment.object.metadata.labels['app.oam.dev/name']).toBe('web');

    const list = await api('GET', '/applications');
    expect(list.body.items.map((a: any) => a.name)).toContain('web');
    const events2 = await api('GET', '/applications/web/events');
    expect(events2.status).toBe(200);
    expect(Array.isArray(events2.body.items)).toBe(true);

    // A single application's stream starts with where it stands now.
    const one = await readEvents(
      `${plane.url}/api/v1/namespaces/${ns}/applications/web/watch`,
      ADMIN,
      () => true,
      'the first event',
    );
    expect(one[0]).toMatchObject({ type: 'ADDED', data: { application: { name: 'web', healthy: true } } });
  });

  it('POST of an existing name is 409; writes go out as field manager oam-api', async () => {
    const again = await api('POST', '/applications', hello('web'));
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/problem\+json/);
    const live = await plane.cluster.app(ns, 'web');
    expect(JSON.stringify(live?.metadata?.managedFields)).toMatch(/"manager":"oam-api"/);
  });

  it('PUT needs the resourceVersion it read; a stale one is 409 and changes nothing', async () => {
    const read = (await api('GET', '/applications/web')).body;
    const stale = read.metadata.resourceVersion;
    read.spec.components[0].properties.image = 'nginx:1.27';
    const ok = await api('PUT', '/applications/web', read);
    expect(ok.status).toBe(200);
    expect(ok.body.metadata.resourceVersion).not.toBe(stale);
    expect(ok.body.metadata.finalizers).toEqual(expect.arrayContaining(['app.oam.dev/cleanup']));

    read.spec.components[0].properties.image = 'nginx:stale';
    const conflict = await api('PUT', '/applications/web', read);
    expect(conflict.status).toBe(409);
    expect((await plane.cluster.app(ns, 'web'))!.spec).toMatchObject({
      components: [{ properties: { image: 'nginx:1.27' } }],
    });
    delete read.metadata.resourceVersion;
    const missing = await api('PUT', '/applications/web', read);
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: 'metadata.resourceVersion' })]);
  });

  it('PATCH takes a merge patch; the result is validated before anything is written', async () => {
    const patched = await api(
      'PATCH',
      '/applications/web',
      { metadata: { labels: { team: 'a' } } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.body.metadata.labels.team).toBe('a');
    const bad = await api(
      'PATCH',
      '/applications/web',
      { spec: { components: [{ name: 'hello-web', type: 'webservice', properties: { image: 42 } }] } },
      'application/merge-patch+json',
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].path).toBe('spec.components[0].properties.image');
  });

  it('preview renders without applying, or lists every error at its field path', async () => {
    const good = await api('POST', '/preview', hello('not-stored'));
    expect(good.status).toBe(200);
    expect(good.body.objects.map((o: any) => o.object.kind)).toEqual(['Deployment', 'Service']);
    expect(await plane.cluster.app(ns, 'not-stored')).toBeUndefined();

    const bad = hello('bad');
    (bad.spec as any).components = [
      { name: 'a', type: 'webservice', properties: { image: 'x', ports: [{ port: 'eighty' }] } },
      { name: 'b', type: 'no-such-type' },
      { name: 'c' },
    ];
    const res = await api('POST', '/preview', bad);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body.errors.map((e: any) => e.path)).toEqual(['spec.components[2].type']);
    // Schema errors come first; once the body is well-formed, the renderer's errors each have their path.
    (bad.spec as any).components.pop();
    const rendered = await api('POST', '/preview', bad);
    expect(rendered.status).toBe(422);
    const paths = rendered.body.errors.map((e: any) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['spec.components[1].type']));
    const stored = await api('POST', '/applications/web/preview');
    expect(stored.status).toBe(200);
    expect(stored.body.objects[0].object.spec.template.spec.containers[0].image).toBe('nginx:1.27');

    const created = await api('POST', '/applications', bad);
    expect(created.status).toBe(422);
    expect(await plane.cluster.app(ns, 'bad')).toBeUndefined();
  });

  it('revisions are listed and rollback sets the controller’s annotation', async () => {
    // The controller snapshots revisions as ApplicationRevisions `<app>-v<N>`; make sure one exists.
    const existing = await plane.cluster.get('core.oam.dev/v1beta1', 'ApplicationRevision', ns, 'web-v1');
    if (!existing) {
      const app = (await plane.cluster.app(ns, 'web'))!;
      const rev = {
        apiVersion: 'core.oam.dev/v1beta1',
        kind: 'ApplicationRevision',
        metadata: {
          name: 'web-v1',
          namespace: ns,
          labels: { 'app.oam.dev/name': 'web' },
          annotations: { 'app.oam.dev/change-summary': 'created' },
        },
        spec: {
          revision: 1,
          application: {
            apiVersion: app.apiVersion,
            kind: app.kind,
            metadata: { name: 'web' },
            spec: app.spec,
          },
        },
      };
      await (await plane.cluster.resource(rev)).create(rev as never);
    }
    const revisions = await eventually(async () => {
      const res = await api('GET', '/applications/web/revisions');
      return res.body.items.some((r: any) => r.revision === 1) ? res.body.items : undefined;
    }, 'revision 1 listed');
    expect(revisions[0]).toMatchObject({ name: 'web-v1', revision: 1 });

    const missing = await api('POST', '/applications/web/rollback', { revision: 99 });
    expect(missing.status).toBe(404);
    const invalid = await api('POST', '/applications/web/rollback', { revision: 'one' });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].path).toBe('revision');
    const res = await api('POST', '/applications/web/rollback', { revision: 1 });
    expect(res.status).toBe(202);
    // What the API wrote (the controller may act on it and clear it at once).
    expect(res.body.metadata.annotations['app.oam.dev/rollback-to-revision']).toBe('1');
    expect(JSON.stringify(res.body.metadata.managedFields)).toMatch(/"manager":"oam-api"/);
  });

  it('404 for a missing application or namespace; DELETE removes the application', async () => {
    expect((await api('GET', '/applications/nope')).status).toBe(404);
    const noNs = await call(plane.url, 'GET', '/api/v1/namespaces/no-such-ns/applications', { token: ADMIN });
    expect(noNs.status).toBe(404);
    expect(noNs.body.detail).toMatch(/namespace "no-such-ns" not found/);
    const del = await api('DELETE', '/applications/web');
    expect(del.status).toBe(202);
    await eventually(async () => (await api('GET', '/applications/web')).status === 404, 'web gone');
  });

  it('standalone Components and Traits have the same CRUD, validated where they go', async () => {
    const component = {
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Component',
      metadata: { name: 'backend' },
      spec: { type: 'webservice', properties: { image: 'nginx:1.27' } },
    };
    const created = await api('POST', '/components', component);
    expect(created.status).toBe(201);
    const trait = {
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Trait',
      metadata: { name: 'backend-scaler' },
      spec: { type: 'scaler', properties: { replicas: 3 }, target: { component: 'backend' } },
    };
    await eventually(async () => (await api('GET', '/components/backend')).status === 200, 'backend cached');
    expect((await api('POST', '/traits', trait)).status).toBe(201);
    const wrong = structuredClone(trait);
    wrong.metadata.name = 'backend-wrong';
    (wrong.spec.properties as any).replicas = 'three';
    const refused = await api('POST', '/traits', wrong);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.length).toBeGreaterThan(0);
    expect((await api('GET', '/traits/backend-wrong')).status).toBe(404);
    const bad = await api('POST', '/components', {
      ...component,
      metadata: { name: 'x' },
      spec: { properties: {} },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.path)).toContain('spec.type');
    await eventually(async () => (await api('GET', '/traits')).body.items.length === 1, 'the trait listed');
    expect((await api('DELETE', '/traits/backend-scaler')).status).toBe(202);
    expect((await api('DELETE', '/components/backend')).status).toBe(202);
  });

  it('/metrics (any valid token) counts requests by route pattern, never by object name', async () => {
    const res = await call(plane.url, 'GET', '/metrics', { token: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toMatch(
      /oam_api_request_duration_seconds_count\{method="GET",route="\/api\/v1\/namespaces\/:namespace\/applications\/:name",status="200"\} \d+/,
    );
    expect(res.body).not.toContain(ns);
  });

  it('bodies that are not JSON objects are 400/415 problem+json', async () => {
    const notJson = await fetch(`${plane.url}/api/v1/namespaces/${ns}/applications`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    expect(notJson.headers.get('content-type')).toMatch(/problem\+json/);
    const yaml = await fetch(`${plane.url}/api/v1/namespaces/${ns}/applications`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/yaml' },
      body: 'a: b',
    });
    expect(yaml.status).toBe(415);
  });
});
