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

  it('nodes: Name, Status, Roles, Age, Version (wide: addresses and node info)', async () => {
    const name = target().unique('table-node');
    await target().core.createNode({
      body: { metadata: { name, labels: { 'node-role.kubernetes.io/worker': '' } } },
    });
    target().defer(async () => {
      await target().core.deleteNode({ name });
    });
    const t = await table(`/api/v1/nodes/${name}`);
    expect(columns(t)).toEqual([
      ['Name', 'string', 'name', 0],
      ['Status', 'string', '', 0],
      ['Roles', 'string', '', 0],
      ['Age', 'string', '', 0],
      ['Version', 'string', '', 0],
      ['Internal-IP', 'string', '', 1],
      ['External-IP', 'string', '', 1],
      ['OS-Image', 'string', '', 1],
      ['Kernel-Version', 'string', '', 1],
      ['Container-Runtime', 'string', '', 1],
    ]);
    // No kubelet reported a Ready condition: Unknown.
    expect(t.rows[0].cells).toEqual([
      name,
      'Unknown',
      'worker',
      expect.any(String),
      '',
      '<none>',
      '<none>',
      '<unknown>',
      '<unknown>',
      '<unknown>',
    ]);
  });

  it('endpointslices: Name, AddressType, Ports, Endpoints (three, then how many more), Age', async () => {
    await target().http.post(`/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`, {
      metadata: { name: 'slice' },
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
      endpoints: ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].map((ip) => ({ addresses: [ip] })),
    });
    const t = await table(`/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices/slice`);
    expect(columns(t)).toEqual([
      ['Name', 'string', 'name', 0],
      ['AddressType', 'string', '', 0],
      ['Ports', 'string', '', 0],
      ['Endpoints', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
    expect(t.rows[0].cells.slice(0, 4)).toEqual([
      'slice',
      'IPv4',
      '80',
      '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...',
    ]);
  });

  it('pods: STATUS from container states, RESTARTS with the last restart, Terminating when deleting', async () => {
    const { http } = target();
    const path = `/api/v1/namespaces/${ns}/pods/states`;
    await target().core.createNamespacedPod({
      namespace: ns,
      body: {
        metadata: { name: 'states', finalizers: ['example.com/hold'] },
        spec: { nodeName: 'no-such-node', containers: [{ name: 'c', image: 'busybox:1' }] },
      },
    });
    const setStatus = async (status: object) => {
      const res = await http.patch(`${path}/status`, 'application/merge-patch+json', { status });
      expect([res.status, res.status === 200 ? '' : res.text]).toEqual([200, '']);
    };
    const cells = async () => (await table(path)).rows[0].cells.slice(1, 4);
    const containerStatus = (state: object, extra: object = {}) => [
      { name: 'c', image: 'busybox:1', imageID: '', ready: false, restartCount: 0, state, ...extra },
    ];
    await setStatus({ containerStatuses: containerStatus({ waiting: { reason: 'ContainerCreating' } }) });
    expect(await cells()).toEqual(['0/1', 'ContainerCreating', '0']);
    await setStatus({
      phase: 'Running',
      containerStatuses: containerStatus(
        { waiting: { reason: 'CrashLoopBackOff', message: 'back-off restarting failed container' } },
        {
          restartCount: 2,
          lastState: {
            terminated: {
              exitCode: 1,
              reason: 'Error',
              startedAt: new Date(Date.now() - 200_000).toISOString().replace(/\.\d+Z$/, 'Z'),
              finishedAt: new Date(Date.now() - 190_000).toISOString().replace(/\.\d+Z$/, 'Z'),
            },
          },
        },
      ),
    });
    const [ready, status, restarts] = await cells();
    expect([ready, status]).toEqual(['0/1', 'CrashLoopBackOff']);
    expect(restarts).toMatch(/^2 \(3m1\ds ago\)$/);
    await http.delete(path, { gracePeriodSeconds: 0 });
    expect((await cells())[1]).toBe('Terminating');
    await http.patch(path, 'application/merge-patch+json', { metadata: { finalizers: null } });
  });

  it('namespaces: Name, Status, Age', async () => {
    const t = await table(`/api/v1/namespaces/${ns}`);
    expect(t.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(t.rows[0].cells.slice(0, 2)).toEqual([ns, 'Active']);
  });
});
