import { useTarget } from './target.js';

/** Fields an update may not change (each kind's ValidateXxxUpdate in kube-apiserver). */
const target = useTarget();
let ns: string;
beforeAll(async () => {
  ns = await target().namespace('immutable');
});

const MERGE = 'application/merge-patch+json';
const SMP = 'application/strategic-merge-patch+json';
const template = (app: string) => ({
  metadata: { labels: { app } },
  spec: { containers: [{ name: 'c', image: 'busybox:1' }] },
});

async function create(collection: string, body: object): Promise<void> {
  const res = await target().http.post(collection, body);
  expect([res.status, res.status === 201 ? '' : res.text]).toEqual([201, '']);
}

/** Patches and expects 422 Invalid; returns the Status. */
async function refused(path: string, patch: object, contentType = MERGE): Promise<any> {
  const res = await target().http.patch(path, contentType, patch);
  expect([res.status, res.json().reason]).toEqual([422, 'Invalid']);
  return res.json();
}

describe('immutable fields', () => {
  it('a Deployment selector cannot change', async () => {
    const path = `/apis/apps/v1/namespaces/${ns}/deployments`;
    await create(path, {
      metadata: { name: 'd' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'd' } }, template: template('d') },
    });
    const status = await refused(`${path}/d`, {
      spec: {
        selector: { matchLabels: { app: 'other' } },
        template: { metadata: { labels: { app: 'other' } } },
      },
    });
    expect(status.message).toBe(
      'Deployment.apps "d" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"other"}}: field is immutable',
    );
    expect(status.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: {"matchLabels":{"app":"other"}}: field is immutable',
        field: 'spec.selector',
      },
    ]);
    // Other fields still change.
    const ok = await target().http.patch(`${path}/d`, MERGE, { spec: { replicas: 1 } });
    expect(ok.status).toBe(200);
  });

  it('a StatefulSet serviceName cannot change', async () => {
    const path = `/apis/apps/v1/namespaces/${ns}/statefulsets`;
    await create(path, {
      metadata: { name: 'sts' },
      spec: {
        replicas: 0,
        serviceName: 'sts',
        selector: { matchLabels: { app: 's' } },
        template: template('s'),
      },
    });
    const status = await refused(`${path}/sts`, { spec: { serviceName: 'other' } });
    expect(status.message).toBe(
      'StatefulSet.apps "sts" is invalid: spec.serviceName: Invalid value: "other": field is immutable',
    );
  });

  it('a Job template is fixed, but a suspended job that never started may change its labels', async () => {
    const path = `/apis/batch/v1/namespaces/${ns}/jobs`;
    await create(path, {
      metadata: { name: 'job' },
      spec: { suspend: true, template: { spec: { ...template('j').spec, restartPolicy: 'Never' } } },
    });
    const status = await refused(`${path}/job`, {
      spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox:2' }] } } },
    });
    expect(status.details.causes).toHaveLength(1);
    // A suspended job that never ran may change its pod resources: the rest of the pod spec is fixed.
    expect(status.details.causes[0]).toMatchObject({
      reason: 'FieldValueInvalid',
      field: 'spec.template.spec',
    });
    expect(status.details.causes[0].message).toMatch(/^Invalid value: .*: field is immutable$/s);
    const ok = await target().http.patch(`${path}/job`, MERGE, {
      spec: { template: { metadata: { labels: { extra: 'yes' } } } },
    });
    expect(ok.status).toBe(200);
  });

  it('an immutable ConfigMap keeps its data and its immutability', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    await create(path, { metadata: { name: 'frozen' }, immutable: true, data: { a: '1' } });
    const data = await refused(`${path}/frozen`, { data: { a: '2' } });
    expect(data.message).toBe(
      'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    );
    expect(data.details.causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: field is immutable when `immutable` is set',
        field: 'data',
      },
    ]);
    const flag = await refused(`${path}/frozen`, { immutable: false });
    expect(flag.message).toBe(
      'ConfigMap "frozen" is invalid: immutable: Forbidden: field is immutable when `immutable` is set',
    );
    // Metadata still changes.
    const ok = await target().http.patch(`${path}/frozen`, MERGE, { metadata: { labels: { l: 'v' } } });
    expect(ok.status).toBe(200);
  });

  it('an immutable Secret keeps its data', async () => {
    const path = `/api/v1/namespaces/${ns}/secrets`;
    await create(path, { metadata: { name: 'frozen' }, immutable: true, data: { a: 'MQ==' } });
    const status = await refused(`${path}/frozen`, { data: { a: 'Mg==' } });
    expect(status.message).toBe(
      'Secret "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set',
    );
  });

  it('a Pod spec changes only in images and the like', async () => {
    const path = `/api/v1/namespaces/${ns}/pods`;
    await create(path, { metadata: { name: 'p' }, spec: template('p').spec });
    // Strategic merge patches: a real cluster mounts the service account token into every container.
    const status = await refused(
      `${path}/p`,
      { spec: { containers: [{ name: 'c', env: [{ name: 'X', value: '1' }] }] } },
      SMP,
    );
    expect(status.details.causes).toHaveLength(1);
    expect(status.details.causes[0]).toMatchObject({ reason: 'FieldValueForbidden', field: 'spec' });
    expect(status.details.causes[0].message).toMatch(
      /^Forbidden: pod updates may not change fields other than `spec\.containers\[\*\]\.image`,`spec\.initContainers\[\*\]\.image`,`spec\.activeDeadlineSeconds`,`spec\.tolerations` \(only additions to existing tolerations\),`spec\.terminationGracePeriodSeconds` \(allow it to be set to 1 if it was previously negative\)\n/,
    );
    const ok = await target().http.patch(`${path}/p`, SMP, {
      spec: { activeDeadlineSeconds: 600, containers: [{ name: 'c', image: 'busybox:2' }] },
    });
    expect(ok.status).toBe(200);
  });

  it('a PersistentVolumeClaim spec is fixed after creation', async () => {
    const path = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
    await create(path, {
      metadata: { name: 'pvc' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    });
    const status = await refused(`${path}/pvc`, { spec: { accessModes: ['ReadWriteMany'] } });
    expect(status.details.causes).toHaveLength(1);
    expect(status.details.causes[0]).toMatchObject({ reason: 'FieldValueForbidden', field: 'spec' });
    expect(status.details.causes[0].message).toMatch(
      /^Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n/,
    );
  });

  it('a RoleBinding roleRef cannot change', async () => {
    const path = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`;
    await create(path, {
      metadata: { name: 'rb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: ns }],
    });
    const status = await refused(`${path}/rb`, { roleRef: { name: 'edit' } });
    expect(status.details.causes).toHaveLength(1);
    expect(status.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'roleRef' });
    expect(status.details.causes[0].message).toMatch(/: field is immutable$/);
  });
});
