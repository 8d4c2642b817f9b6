import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { CoreV1Api } from '@kubernetes/client-node';
import { ROUTES, type RouteSpec } from '#api-server';
import { ControllerCluster } from '../controller/harness.js';
import { ADMIN, ApiPlane, call, READER } from './harness.js';

/**
 * Authentication and authorization on every route, generated from the route
 * table (so a new route cannot be left out), in both auth modes; and the
 * OpenAPI document. No controller: refusals happen before anything is read.
 */
let cluster: ControllerCluster;
let tokens: ApiPlane;
let kubernetes: ApiPlane;
/** ServiceAccount tokens of team-a (TokenRequest): `nobody` has no RBAC; `viewer` may read there. */
const sa = { nobody: '', viewer: '' };
const READ_ALL = {
  apiGroups: ['core.oam.dev'],
  resources: [
    'applications',
    'applicationrevisions',
    'components',
    'traits',
    'componentdefinitions',
    'traitdefinitions',
  ],
  verbs: ['get', 'list', 'watch'],
};
beforeAll(async () => {
  cluster = await ControllerCluster.start();
  const create = async (apiVersion: string, kind: string, obj: Record<string, unknown>) =>
    (await cluster.resource({ apiVersion, kind })).create({ apiVersion, kind, ...obj } as never);
  for (const name of ['team-a', 'team-b']) await create('v1', 'Namespace', { metadata: { name } });
  const core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  for (const name of Object.keys(sa) as (keyof typeof sa)[]) {
    await create('v1', 'ServiceAccount', { metadata: { name, namespace: 'team-a' } });
    const tr = await core.createNamespacedServiceAccountToken({
      name,
      namespace: 'team-a',
      body: { spec: { audiences: [] } },
    });
    sa[name] = tr.status!.token;
  }
  const rbac = 'rbac.authorization.k8s.io/v1';
  await create(rbac, 'Role', { metadata: { name: 'read-all', namespace: 'team-a' }, rules: [READ_ALL] });
  await create(rbac, 'RoleBinding', {
    metadata: { name: 'viewer', namespace: 'team-a' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-all' },
    subjects: [{ kind: 'ServiceAccount', name: 'viewer', namespace: 'team-a' }],
  });
  tokens = await ApiPlane.start({}, cluster);
  kubernetes = await ApiPlane.start({ auth: 'kubernetes', tokensFile: undefined }, cluster);
});
afterAll(async () => {
  await tokens?.stop({ cluster: false });
  await kubernetes?.stop({ cluster: false });
  await cluster?.stop();
});

const routes = Object.entries(ROUTES) as [string, RouteSpec][];
const guarded = routes.filter(([, r]) => r.access !== 'public');
const open = routes.filter(([, r]) => r.access === 'public');

function request(r: RouteSpec, namespace: string) {
  const path = r.path
    .replace('{namespace}', namespace)
    .replace('{name}', 'x')
    .replace('{file}', 'swagger-ui.css');
  const query = r.access !== 'public' && r.access.namespaceFrom === 'query' ? `?namespace=${namespace}` : '';
  const body = r.body ? {} : undefined;
  return { method: r.method.toUpperCase(), path: path + query, body, contentType: r.body?.contentType };
}

async function send(base: string, r: RouteSpec, namespace: string, token?: string) {
  const { method, path, body, contentType } = request(r, namespace);
  return call(base, method, path, { token, body, contentType });
}

describe.each([
  ['tokens', () => tokens],
  ['kubernetes', () => kubernetes],
])('--auth %s', (_mode, plane) => {
  it.each(guarded)('%s without a token is 401 problem+json', async (_id, r) => {
    const res = await send(plane().url, r, 'team-a');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ status: 401, title: 'Unauthorized' });
  });

  it.each(guarded)('%s with a wrong token is 401', async (_id, r) => {
    const res = await send(plane().url, r, 'team-a', 'not-a-valid-token-at-all');
    expect(res.status).toBe(401);
  });

  it('a body is neither read nor judged before the token: 401, not 400 or 415', async () => {
    for (const token of [undefined, 'not-a-valid-token-at-all'])
      for (const [contentType, body] of [
        ['text/plain', 'hello'],
        ['application/json', '{not json'],
      ]) {
        const res = await fetch(`${plane().url}/api/v1/namespaces/team-a/applications`, {
          method: 'POST',
          headers: { 'Content-Type': contentType, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          body,
        });
        expect([token, contentType, res.status]).toEqual([token, contentType, 401]);
      }
  });

  it.each(open)('%s is open without a token', async (_id, r) => {
    const res = await send(plane().url, r, 'team-a');
    expect(res.status).toBe(200);
  });
});

describe('--auth tokens: namespaces and verbs', () => {
  it.each(guarded)('%s in a namespace the token does not cover is 403', async (_id, r) => {
    const res = await send(tokens.url, r, 'team-b', READER);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/reader may not/);
  });

  const writes = guarded.filter(
    ([, r]) => r.access !== 'public' && !['get', 'list', 'watch'].includes(r.access.verb),
  );
  it.each(writes)('%s with a read-only token is 403 in its own namespace', async (_id, r) => {
    const res = await send(tokens.url, r, 'team-a', READER);
    expect(res.status).toBe(403);
  });

  it('a read-only token reads its namespace; the admin token writes', async () => {
    const list = await call(tokens.url, 'GET', '/api/v1/namespaces/team-a/applications', { token: READER });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [] });
    const catalog = await call(tokens.url, 'GET', '/api/v1/catalog/components', { token: READER });
    expect(catalog.status).toBe(200);
    const bad = await call(tokens.url, 'POST', '/api/v1/namespaces/team-b/applications', {
      token: ADMIN,
      body: {},
    });
    expect(bad.status).toBe(422);
  });
});

describe('--auth kubernetes: a ServiceAccount’s token, RBAC through SubjectAccessReview', () => {
  it.each(guarded)('%s with a token RBAC grants nothing is 403', async (_id, r) => {
    const res = await send(kubernetes.url, r, 'team-a', sa.nobody);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/system:serviceaccount:team-a:nobody may not/);
  });

  it.each(guarded)('%s in a namespace without a RoleBinding is 403', async (_id, r) => {
    const res = await send(kubernetes.url, r, 'team-b', sa.viewer);
    expect(res.status).toBe(403);
  });

  const writes = guarded.filter(
    ([, r]) => r.access !== 'public' && !['get', 'list', 'watch'].includes(r.access.verb),
  );
  it.each(writes)('%s with a read-only Role is 403 in its own namespace', async (_id, r) => {
    const res = await send(kubernetes.url, r, 'team-a', sa.viewer);
    expect(res.status).toBe(403);
  });

  it('a read-only Role reads its namespace', async () => {
    const list = await call(kubernetes.url, 'GET', '/api/v1/namespaces/team-a/applications', {
      token: sa.viewer,
    });
    expect(list.status).toBe(200);
    const catalog = await call(kubernetes.url, 'GET', '/api/v1/catalog/components?namespace=team-a', {
      token: sa.viewer,
    });
    expect(catalog.status).toBe(200);
  });
  it('the cluster’s own token (TokenReview) is allowed what RBAC allows it (SubjectAccessReview)', async () => {
    const res = await call(kubernetes.url, 'GET', '/api/v1/namespaces/team-a/applications', {
      token: kubernetes.kubeToken,
    });
    expect(res.status).toBe(200);
    const missing = await call(kubernetes.url, 'GET', '/api/v1/namespaces/team-a/applications/x', {
      token: kubernetes.kubeToken,
    });
    expect(missing.status).toBe(404);
  });
});

describe('OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (Redocly’s structural check), at both paths', async () => {
    const res = await call(tokens.url, 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await call(tokens.url, 'GET', '/api/v1/openapi.json')).body).toEqual(res.body);
    const config = await createConfig({ rules: { struct: 'error', 'no-unresolved-refs': 'error' } });
    const problems = await lintFromString({
      source: JSON.stringify(res.body),
      absoluteRef: '/openapi.json',
      config,
    });
    expect(problems.map((p) => `${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it('is OpenAPI 3.1 with every route of the table, each schema valid JSON Schema 2020-12', async () => {
    const res = await call(tokens.url, 'GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    const ids = new Set<string>();
    for (const [id, r] of routes) {
      if (id === 'openapiAlias') continue;
      const op = doc.paths[r.path]?.[r.method];
      expect([id, !!op]).toEqual([id, true]);
      expect(ids.has(op.operationId)).toBe(false);
      ids.add(op.operationId);
      const declared = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(
        (op.parameters ?? [])
          .filter((p: any) => p.in === 'path')
          .map((p: any) => p.name)
          .sort(),
      ).toEqual(declared);
      if (r.access === 'public') expect(op.security).toEqual([]);
      else expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403']));
      const schemas = [
        ...Object.values(op.requestBody?.content ?? {}),
        ...Object.values(op.responses).flatMap((x: any) => Object.values(x.content ?? {})),
      ].map((c: any) => c.schema);
      for (const schema of schemas) {
        const resolved = JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"doc#/components'));
        expect(() => ajv.compile(resolved)).not.toThrow();
      }
    }
    const app =
      doc.paths['/api/v1/namespaces/{namespace}/applications'].post.requestBody.content['application/json']
        .schema;
    expect(app.properties.spec.properties.components.type).toBe('array');
  });
});

describe('Swagger UI at /api/docs', () => {
  it('serves the page, every file it references, and the document its initializer names', async () => {
    const page = await call(tokens.url, 'GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const refs = [...(page.body as string).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(
      expect.arrayContaining(['/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css']),
    );
    for (const ref of refs) {
      expect(ref).toMatch(/^\/api\/docs\//); // served here: no CDN
      const asset = await call(tokens.url, 'GET', ref);
      expect([ref, asset.status]).toEqual([ref, 200]);
      expect(asset.headers.get('content-type')).toMatch(/^(text\/css|text\/javascript|image\/png)/);
    }
    const init = await call(tokens.url, 'GET', '/api/docs/swagger-initializer.js');
    const url = /url: "([^"]+)"/.exec(init.body)?.[1];
    expect(url).toBe('/api/openapi.json');
    expect((await call(tokens.url, 'GET', url!)).body.openapi).toBe('3.1.0');
  });

  it('serves nothing else of the package', async () => {
    for (const file of ['package.json', 'index.html', '..%2Fpackage.json', 'swagger-ui.js.map']) {
      const res = await call(tokens.url, 'GET', `/api/docs/${file}`);
      expect([file, res.status]).toEqual([file, 404]);
    }
  });
});
