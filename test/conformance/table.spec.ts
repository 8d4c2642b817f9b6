import { useTarget } from './target.js';

/** Server-side printing: `kubectl get` asks for a Table and prints its columns. */
const target = useTarget();
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
let ns: string;

beforeAll(async () => {
  ns = await target().namespace('table');
  await target().core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'two-keys', labels: { t: 'table' } }, data: { a: '1', b: '2' } },
  });
  await target().apps.createNamespacedDeployment({
    namespace: ns,
    body: {
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'main', image: 'nginx:1' },
              { name: 'side', image: 'busybox:1' },
            ],
          },
        },
      },
    },
  });
});

async function table(path: string): Promise<any> {
  const res = await target().http.get(path, { accept: TABLE });
  if (res.status !== 200) throw new Error(`GET ${path} as Table: ${res.status} ${res.text}`);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return res.json();
}

const columns = (t: any) => t.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority]);

describe('Table output', () => {
  it('configmaps: Name, Data, Age with a PartialObjectMetadata per row', async () => {
    const t = await table(`/api/v1/namespaces/${ns}/configmaps?labelSelector=t%3Dtable`);
    expect(t).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(t.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(columns(t)).toEqual([
      ['Name', 'string', 'name', 0],
      ['Data', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
    for (const c of t.columnDefinitions) expect(typeof c.description).toBe('string');
    expect(t.rows).toHaveLength(1);
    const [name, data, age] = t.rows[0].cells;
    expect([name, data]).toEqual(['two-keys', 2]);
    expect(age).toMatch(/^\d+(s|m\d*s?|h\d*m?|d\d*h?)$/);
    expect(t.rows[0].object).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'two-keys', namespace: ns },
    });
    expect(t.rows[0].object.data).toBeUndefined();
  });

  it('deployments: the kubectl columns, wide ones at priority 1', async () => {
    const t = await table(`/apis/apps/v1/namespaces/${ns}/deployments`);
    expect(columns(t).map((c: any[]) => [c[0], c[3]])).toEqual([
      ['Name', 0],
      ['Ready', 0],
      ['Up-to-date', 0],
      ['Available', 0],
      ['Age', 0],
      ['Containers', 1],
      ['Images', 1],
      ['Selector', 1],
    ]);
    const cells = t.rows[0].cells;
    expect(cells[0]).toBe('web');
    expect(cells[1]).toMatch(/^\d+\/1$/);
    expect(cells.slice(5)).toEqual(['main,side', 'nginx:1,busybox:1', 'app=web']);
  });

  it('a single object as a Table has one row', async () => {
    const t = await table(`/api/v1/namespaces/${ns}/configmaps/two-keys`);
    expect(t.kind).toBe('Table');
    expect(t.rows.map((r: any) => r.cells[0])).toEqual(['two-keys']);
  });

  it('includeObject=Object embeds the full object', async () => {
    const t = await table(`/api/v1/namespaces/${ns}/configmaps/two-keys?includeObject=Object`);
    expect(t.rows[0].object).toMatchObject({ kind: 'ConfigMap', data: { a: '1', b: '2' } });
  });

  it('pods: Name, Ready, Status, Restarts, Age, then the wide columns', async () => {
    await target().core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name: 'p' },
        spec: { nodeName: 'no-such-node', containers: [{ name: 'c', image: 'busybox' }] },
      },
    });
    const t = await table(`/api/v1/namespaces/${ns}/pods`);
    expect(t.columnDefinitions.filter((c: any) => c.priority === 0).map((c: any) => c.name)).toEqual([
      'Name',
      'Ready',
      'Status',
      'Restarts',
      'Age',
    ]);
    expect(t.columnDefinitions.filter((c: any) => c.priority === 1).map((c: any) => c.name)).toEqual([
      'IP',
      'Node',
      'Nominated Node',
      'Readiness Gates',
    ]);
    expect(t.rows[0].cells[0]).toBe('p');
  });

  it('namespaces: Name, Status, Age', async () => {
    const t = await table(`/api/v1/namespaces/${ns}`);
    expect(t.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(t.rows[0].cells.slice(0, 2)).toEqual([ns, 'Active']);
  });
});
