import { createWidgetCrd, deleteWidgetCrd, widget, type WidgetCrd } from './crd-fixture.js';
import { useTarget } from './target.js';

/**
 * The status and scale subresources. Pods are bound to a node that does not
 * exist, so that no scheduler, kubelet or simulator writes their status meanwhile.
 */
const target = useTarget();
let ns: string;
let crd: WidgetCrd;
const MERGE = 'application/merge-patch+json';

beforeAll(async () => {
  ns = await target().namespace('sub');
  crd = await createWidgetCrd(target());
  target().defer(() => deleteWidgetCrd(target(), crd));
}, 30_000);

const podPath = (name = '') => `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}`;
const deployPath = (name = '') => `/apis/apps/v1/namespaces/${ns}/deployments${name ? `/${name}` : ''}`;

async function ok(res: Promise<{ status: number; text: string; json(): any }>, what: string): Promise<any> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.json();
}

describe('status subresource (built-in: pods)', () => {
  const pod = (name: string) => ({
    metadata: { name, labels: { a: '1' } },
    spec: { nodeName: 'no-such-node', containers: [{ name: 'c', image: 'busybox:1' }] },
    status: { phase: 'Running', message: 'from create' },
  });

  it('create ignores status', async () => {
    const created = await ok(target().http.post(podPath(), pod('create')), 'create pod');
    expect(created.status.phase).toBe('Pending');
    expect(created.status.message).toBeUndefined();
  });

  it('writes to the main resource ignore status', async () => {
    await ok(target().http.post(podPath(), pod('main')), 'create pod');
    const patched = await ok(
      target().http.patch(podPath('main'), MERGE, {
        metadata: { labels: { a: '2' } },
        status: { message: 'ignored' },
      }),
      'patch pod',
    );
    expect(patched.metadata.labels).toEqual({ a: '2' });
    expect(patched.status.message).toBeUndefined();
  });

  it('writes to /status change status only', async () => {
    const created = await ok(target().http.post(podPath(), pod('st')), 'create pod');
    const updated = await ok(
      target().http.put(podPath('st/status'), {
        ...created,
        spec: { ...created.spec, activeDeadlineSeconds: 30 },
        status: { ...created.status, message: 'set through status' },
      }),
      'update pod status',
    );
    expect(updated.status.message).toBe('set through status');
    expect(updated.spec.activeDeadlineSeconds).toBeUndefined();
    const patched = await ok(
      target().http.patch(podPath('st/status'), MERGE, { status: { reason: 'Patched' } }),
      'patch pod status',
    );
    expect(patched.status).toMatchObject({ message: 'set through status', reason: 'Patched' });
    expect(BigInt(patched.metadata.resourceVersion)).toBeGreaterThan(
      BigInt(updated.metadata.resourceVersion),
    );
  });

  it('GET /status returns the whole object', async () => {
    await ok(target().http.post(podPath(), pod('get')), 'create pod');
    const res = await ok(target().http.get(podPath('get/status')), 'get pod status');
    expect(res).toMatchObject({ kind: 'Pod', metadata: { name: 'get' }, spec: { nodeName: 'no-such-node' } });
  });
});

describe('status subresource (CRD)', () => {
  it('main ignores status; /status ignores spec and metadata and does not bump generation', async () => {
    const http = target().http;
    const created = await ok(
      http.post(crd.path(ns), { ...widget('s', { color: 'red' }, crd.group), status: { phase: 'Ignored' } }),
      'create widget',
    );
    expect(created.status).toBeUndefined();
    const main = await ok(
      http.patch(crd.path(ns, 's'), MERGE, { spec: { size: 4 }, status: { phase: 'Ignored' } }),
      'patch widget',
    );
    expect(main.status).toBeUndefined();
    expect(main.metadata.generation).toBe(2);
    const status = await ok(
      http.patch(crd.path(ns, 's/status'), MERGE, {
        metadata: { labels: { through: 'status' } },
        spec: { size: 9 },
        status: { phase: 'Ready', replicas: 2 },
      }),
      'patch widget status',
    );
    expect(status.status).toEqual({ phase: 'Ready', replicas: 2 });
    expect(status.spec.size).toBe(4);
    expect(status.metadata.labels).toBeUndefined();
    expect(status.metadata.generation).toBe(2);
  });

  it('status is validated against the schema too', async () => {
    const http = target().http;
    await ok(http.post(crd.path(ns), widget('sv', { color: 'red' }, crd.group)), 'create widget');
    const res = await http.patch(crd.path(ns, 'sv/status'), MERGE, { status: { phase: 5 } });
    expect(res.status).toBe(422);
    const causes = res.json().details.causes;
    expect(causes).toEqual([
      expect.objectContaining({ reason: 'FieldValueTypeInvalid', field: 'status.phase' }),
    ]);
    // kube-apiserver 1.37 names the field "phase in body" here (not "status.phase"): either reads fine.
    expect(causes[0].message).toMatch(
      /^Invalid value: "integer": (status\.)?phase in body must be of type string: "integer"$/,
    );
  });
});

describe('scale subresource', () => {
  beforeAll(async () => {
    await ok(
      target().http.post(deployPath(), {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
          },
        },
      }),
      'create deployment',
    );
  });

  it('GET deployments/scale is an autoscaling/v1 Scale', async () => {
    const scale = await ok(target().http.get(deployPath('web/scale')), 'get scale');
    expect(scale).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'web', namespace: ns },
      spec: { replicas: 2 },
      status: { selector: 'app=web' },
    });
    expect(typeof scale.status.replicas).toBe('number');
  });

  it('PUT and PATCH on /scale change spec.replicas and bump generation', async () => {
    const http = target().http;
    const scale = await ok(http.get(deployPath('web/scale')), 'get scale');
    // Without a resourceVersion: the deployment controller (or the simulator) writes status meanwhile.
    const { resourceVersion: _rv, ...meta } = scale.metadata;
    const put = await ok(
      http.put(deployPath('web/scale'), { ...scale, metadata: meta, spec: { replicas: 4 } }),
      'put scale',
    );
    expect(put.spec.replicas).toBe(4);
    const d = await ok(http.get(deployPath('web')), 'get deployment');
    expect(d.spec.replicas).toBe(4);
    expect(d.metadata.generation).toBe(2);
    const patched = await ok(
      http.patch(deployPath('web/scale'), MERGE, { spec: { replicas: 1 } }),
      'patch scale',
    );
    expect(patched.spec.replicas).toBe(1);
    expect((await ok(http.get(deployPath('web')), 'get deployment')).spec.replicas).toBe(1);
  });

  it('a stale resourceVersion on /scale is 409 Conflict', async () => {
    const http = target().http;
    const scale = await ok(http.get(deployPath('web/scale')), 'get scale');
    await ok(
      http.patch(deployPath('web'), MERGE, { metadata: { labels: { touched: 'yes' } } }),
      'touch deployment',
    );
    const res = await http.put(deployPath('web/scale'), { ...scale, spec: { replicas: 3 } });
    expect(res.status).toBe(409);
    expect(res.json().reason).toBe('Conflict');
  });

  it('CRD scale maps specReplicasPath, statusReplicasPath and labelSelectorPath', async () => {
    const http = target().http;
    await ok(
      http.post(crd.path(ns), widget('scaled', { color: 'red', replicas: 2 }, crd.group)),
      'create widget',
    );
    await ok(
      http.patch(crd.path(ns, 'scaled/status'), MERGE, { status: { replicas: 1, selector: 'app=w' } }),
      'widget status',
    );
    const scale = await ok(http.get(crd.path(ns, 'scaled/scale')), 'get widget scale');
    expect(scale).toMatchObject({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      spec: { replicas: 2 },
      status: { replicas: 1, selector: 'app=w' },
    });
    await ok(
      http.patch(crd.path(ns, 'scaled/scale'), MERGE, { spec: { replicas: 5 } }),
      'patch widget scale',
    );
    expect((await ok(http.get(crd.path(ns, 'scaled')), 'get widget')).spec.replicas).toBe(5);
  });
});

describe('pod connect subresources (log, exec, attach, portforward)', () => {
  it.each([
    ['GET', 'log'],
    ['POST', 'exec?command=true&stdout=true'],
    ['POST', 'attach?stdout=true'],
    ['POST', 'portforward?ports=80'],
  ])('%s pods/%s of a missing pod is 404', async (method, sub) => {
    const res = await target().http.request(method, `${podPath('missing')}/${sub}`);
    expect(res.status).toBe(404);
    expect(res.json()).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'pods "missing" not found',
      details: { name: 'missing', kind: 'pods' },
    });
  });
});
