import { useTarget } from './target.js';

/** The built-in types the platform and its users need: each is served, stored and read back as itself. */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('builtin');
});

const labels = { app: 'b' };
const podTemplate = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'busybox:1' }] } };

// [group version, plural, namespaced, body]
const objects: [string, string, boolean, Record<string, unknown>][] = [
  ['v1', 'serviceaccounts', true, { metadata: { name: 'sa' } }],
  [
    'v1',
    'persistentvolumeclaims',
    true,
    {
      metadata: { name: 'pvc' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ],
  [
    'apps/v1',
    'replicasets',
    true,
    {
      metadata: { name: 'rs' },
      spec: { replicas: 0, selector: { matchLabels: labels }, template: podTemplate },
    },
  ],
  [
    'apps/v1',
    'statefulsets',
    true,
    {
      metadata: { name: 'sts' },
      spec: { replicas: 0, serviceName: 'sts', selector: { matchLabels: labels }, template: podTemplate },
    },
  ],
  [
    'apps/v1',
    'daemonsets',
    true,
    { metadata: { name: 'ds' }, spec: { selector: { matchLabels: labels }, template: podTemplate } },
  ],
  [
    'batch/v1',
    'jobs',
    true,
    {
      metadata: { name: 'job' },
      spec: { suspend: true, template: { spec: { ...podTemplate.spec, restartPolicy: 'Never' } } },
    },
  ],
  [
    'batch/v1',
    'cronjobs',
    true,
    {
      metadata: { name: 'cj' },
      spec: {
        schedule: '*/5 * * * *',
        suspend: true,
        jobTemplate: { spec: { template: { spec: { ...podTemplate.spec, restartPolicy: 'Never' } } } },
      },
    },
  ],
  [
    'networking.k8s.io/v1',
    'ingresses',
    true,
    {
      metadata: { name: 'ing' },
      spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
    },
  ],
  [
    'coordination.k8s.io/v1',
    'leases',
    true,
    { metadata: { name: 'lease' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } },
  ],
  [
    'rbac.authorization.k8s.io/v1',
    'roles',
    true,
    { metadata: { name: 'role' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] },
  ],
  [
    'rbac.authorization.k8s.io/v1',
    'rolebindings',
    true,
    {
      metadata: { name: 'rb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'role' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'NS' }],
    },
  ],
  [
    'rbac.authorization.k8s.io/v1',
    'clusterroles',
    false,
    { metadata: { name: 'UNIQUE' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }] },
  ],
  [
    'rbac.authorization.k8s.io/v1',
    'clusterrolebindings',
    false,
    {
      metadata: { name: 'UNIQUE' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'NS' }],
    },
  ],
];

function base(gv: string): string {
  return gv === 'v1' ? '/api/v1' : `/apis/${gv}`;
}

describe('built-in types', () => {
  it.each(objects)('%s %s: create, get, list, delete', async (gv, plural, namespaced, template) => {
    const http = target().http;
    const body = JSON.parse(
      JSON.stringify(template)
        .replaceAll('"NS"', JSON.stringify(ns))
        .replaceAll('"UNIQUE"', JSON.stringify(target().unique(plural))),
    );
    const collection = `${base(gv)}${namespaced ? `/namespaces/${ns}` : ''}/${plural}`;
    const created = await http.post(collection, body);
    expect([created.status, created.status === 201 ? '' : created.text]).toEqual([201, '']);
    const name = created.json().metadata.name;
    const got = (await http.get(`${collection}/${name}`)).json();
    expect(got.apiVersion).toBe(gv);
    expect(got.metadata.uid).toBe(created.json().metadata.uid);
    const list = (await http.get(collection)).json();
    expect(list.kind).toBe(`${got.kind}List`);
    expect(list.items.map((i: any) => i.metadata.name)).toContain(name);
    expect((await http.delete(`${collection}/${name}`)).status).toBe(200);
  });

  it('secrets: stringData is stored base64 in data', async () => {
    const res = await target().http.post(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: 's' },
      stringData: { password: 'hunter2' },
    });
    expect(res.status).toBe(201);
    const got = (await target().http.get(`/api/v1/namespaces/${ns}/secrets/s`)).json();
    expect(got).toMatchObject({
      type: 'Opaque',
      data: { password: Buffer.from('hunter2').toString('base64') },
    });
    expect(got.stringData).toBeUndefined();
  });

  it('secrets: stringData wins over data for the same key, on create and on patch', async () => {
    const http = target().http;
    const b64 = (text: string) => Buffer.from(text).toString('base64');
    const res = await http.post(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: 's2' },
      data: { user: b64('old'), keep: b64('k') },
      stringData: { user: 'new' },
    });
    expect(res.status).toBe(201);
    expect(res.json().data).toEqual({ user: b64('new'), keep: b64('k') });
    expect(res.json().stringData).toBeUndefined();
    const patched = await http.patch(`/api/v1/namespaces/${ns}/secrets/s2`, 'application/merge-patch+json', {
      stringData: { keep: 'changed' },
    });
    expect(patched.status).toBe(200);
    expect(patched.json().data).toEqual({ user: b64('new'), keep: b64('changed') });
    expect(patched.json().stringData).toBeUndefined();
  });

  it('services get a clusterIP and default port fields', async () => {
    const res = await target().http.post(`/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'web' },
      spec: { selector: labels, ports: [{ port: 80 }] },
    });
    expect(res.status).toBe(201);
    const svc = res.json();
    expect(svc.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(svc.spec.clusterIPs).toEqual([svc.spec.clusterIP]);
    expect(svc.spec).toMatchObject({
      type: 'ClusterIP',
      sessionAffinity: 'None',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      internalTrafficPolicy: 'Cluster',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
    });
  });

  it('a HorizontalPodAutoscaler written as autoscaling/v2 reads as autoscaling/v1 from the same store', async () => {
    const http = target().http;
    const res = await http.post(`/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, {
      metadata: { name: 'hpa' },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        minReplicas: 2,
        maxReplicas: 5,
        metrics: [
          {
            type: 'Resource',
            resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
          },
        ],
      },
    });
    expect(res.status).toBe(201);
    const v1 = (await http.get(`/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers/hpa`)).json();
    expect(v1).toMatchObject({
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { uid: res.json().metadata.uid },
      spec: { minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
    });
  });

  it('a core v1 Event reads as events.k8s.io/v1 from the same store', async () => {
    const http = target().http;
    const res = await http.post(`/api/v1/namespaces/${ns}/events`, {
      metadata: { name: 'ev' },
      involvedObject: { kind: 'ConfigMap', name: 'x', namespace: ns, apiVersion: 'v1' },
      reason: 'Testing',
      message: 'hello',
      type: 'Normal',
      source: { component: 'conformance' },
    });
    expect(res.status).toBe(201);
    const ev = (await http.get(`/apis/events.k8s.io/v1/namespaces/${ns}/events/ev`)).json();
    expect(ev).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      reason: 'Testing',
      note: 'hello',
      type: 'Normal',
      regarding: { kind: 'ConfigMap', name: 'x', namespace: ns },
      deprecatedSource: { component: 'conformance' },
    });
  });
});
