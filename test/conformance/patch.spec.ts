import { useTarget } from './target.js';

/** JSON patch, JSON merge patch and strategic merge patch on built-in types. */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('patch');
});

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const cm = (name: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;
const deploy = (name: string) => `/apis/apps/v1/namespaces/${ns}/deployments/${name}`;

async function createDeployment(name: string): Promise<void> {
  const res = await target().http.post(`/apis/apps/v1/namespaces/${ns}/deployments`, {
    metadata: { name },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'a',
              image: 'a:1',
              env: [
                { name: 'X', value: '1' },
                { name: 'Y', value: '2' },
              ],
              ports: [
                { name: 'http', containerPort: 80 },
                { name: 'https', containerPort: 443 },
              ],
            },
            { name: 'b', image: 'b:1' },
          ],
        },
      },
    },
  });
  if (res.status !== 201) throw new Error(`create deployment ${name}: ${res.status} ${res.text}`);
}

async function patchOk(path: string, type: string, body: object): Promise<any> {
  const res = await target().http.patch(path, type, body);
  if (res.status !== 200) throw new Error(`PATCH ${path} (${type}): ${res.status} ${res.text}`);
  return res.json();
}

describe('JSON patch', () => {
  it('applies add, replace, remove, test in order', async () => {
    await target().http.post(`/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'jp' },
      data: { a: '1', b: '2' },
    });
    const out = await patchOk(cm('jp'), JSON_PATCH, [
      { op: 'test', path: '/data/a', value: '1' },
      { op: 'replace', path: '/data/a', value: '10' },
      { op: 'add', path: '/data/c', value: '3' },
      { op: 'remove', path: '/data/b' },
      { op: 'add', path: '/metadata/labels', value: { patched: 'yes' } },
    ]);
    expect(out.data).toEqual({ a: '10', c: '3' });
    expect(out.metadata.labels).toEqual({ patched: 'yes' });
  });

  it('a failing test operation is 422 Invalid and changes nothing', async () => {
    await target().http.post(`/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'jp-test' },
      data: { a: '1' },
    });
    const res = await target().http.patch(cm('jp-test'), JSON_PATCH, [
      { op: 'test', path: '/data/a', value: 'other' },
      { op: 'replace', path: '/data/a', value: '2' },
    ]);
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    expect((await target().http.get(cm('jp-test'))).json().data).toEqual({ a: '1' });
  });
});

describe('JSON merge patch', () => {
  it('merges maps, deletes keys set to null, replaces lists whole', async () => {
    await createDeployment('mp');
    await target().http.post(`/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'mp' },
      data: { a: '1', b: '2' },
    });
    const out = await patchOk(cm('mp'), MERGE, { data: { b: null, c: '3' } });
    expect(out.data).toEqual({ a: '1', c: '3' });
    const d = await patchOk(deploy('mp'), MERGE, {
      spec: { template: { spec: { containers: [{ name: 'only', image: 'only:1' }] } } },
    });
    expect(d.spec.template.spec.containers.map((c: any) => [c.name, c.image])).toEqual([['only', 'only:1']]);
  });

  it('a patch with a resourceVersion is a precondition: stale gives 409 Conflict', async () => {
    await target().http.post(`/api/v1/namespaces/${ns}/configmaps`, {
      metadata: { name: 'mp-rv' },
      data: { a: '1' },
    });
    const res = await target().http.patch(cm('mp-rv'), MERGE, {
      metadata: { resourceVersion: '1' },
      data: { a: '2' },
    });
    expect(res.status).toBe(409);
    expect(res.json().reason).toBe('Conflict');
  });
});

describe('strategic merge patch', () => {
  it('merges containers by name, env by name and ports by containerPort', async () => {
    await createDeployment('smp');
    const out = await patchOk(deploy('smp'), STRATEGIC, {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'a',
                image: 'a:2',
                env: [
                  { name: 'Y', value: '3' },
                  { name: 'Z', value: '4' },
                ],
                ports: [{ name: 'alt', containerPort: 8080 }],
              },
            ],
          },
        },
      },
    });
    const [a, b] = out.spec.template.spec.containers;
    expect(out.spec.template.spec.containers).toHaveLength(2);
    expect([a.name, a.image, b.name, b.image]).toEqual(['a', 'a:2', 'b', 'b:1']);
    expect(Object.fromEntries(a.env.map((e: any) => [e.name, e.value]))).toEqual({ X: '1', Y: '3', Z: '4' });
    expect(a.ports.map((p: any) => p.containerPort).sort((x: number, y: number) => x - y)).toEqual([
      80, 443, 8080,
    ]);
    expect(out.metadata.generation).toBe(2);
  });

  it('$patch: delete removes one container by name', async () => {
    await createDeployment('smp-del');
    const out = await patchOk(deploy('smp-del'), STRATEGIC, {
      spec: { template: { spec: { containers: [{ name: 'b', $patch: 'delete' }] } } },
    });
    expect(out.spec.template.spec.containers.map((c: any) => c.name)).toEqual(['a']);
  });

  it('null deletes a map key; labels merge', async () => {
    await createDeployment('smp-null');
    const out = await patchOk(deploy('smp-null'), STRATEGIC, {
      metadata: { labels: { added: 'yes' } },
      spec: { template: { spec: { containers: [{ name: 'a', env: [{ name: 'X', $patch: 'delete' }] }] } } },
    });
    expect(out.metadata.labels).toEqual({ added: 'yes' });
    expect(out.spec.template.spec.containers[0].env.map((e: any) => e.name)).toEqual(['Y']);
    const again = await patchOk(deploy('smp-null'), STRATEGIC, { metadata: { labels: { added: null } } });
    expect(again.metadata.labels).toBeUndefined();
  });

  it('service ports merge by port', async () => {
    const svc = `/api/v1/namespaces/${ns}/services`;
    const created = await target().http.post(svc, {
      metadata: { name: 'svc' },
      spec: { selector: { app: 'x' }, ports: [{ name: 'http', port: 80, targetPort: 8080 }] },
    });
    expect(created.status).toBe(201);
    const out = await patchOk(`${svc}/svc`, STRATEGIC, {
      spec: { ports: [{ name: 'https', port: 443, targetPort: 8443 }] },
    });
    expect(out.spec.ports.map((p: any) => [p.name, p.port]).sort()).toEqual([
      ['http', 80],
      ['https', 443],
    ]);
  });

  it('an unsupported patch content type is 415 UnsupportedMediaType', async () => {
    await target().http.post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'ct' } });
    const res = await target().http.patch(cm('ct'), 'text/plain', 'x');
    expect(res.status).toBe(415);
    expect(res.json()).toMatchObject({ reason: 'UnsupportedMediaType', code: 415 });
  });
});
