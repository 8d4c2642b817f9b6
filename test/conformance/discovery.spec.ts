import { useTarget } from './target.js';

/** Discovery: what kubectl and client libraries read before anything else. */
const target = useTarget();

function resource(list: any, name: string): any {
  const found = list.resources.find((r: any) => r.name === name);
  if (!found) throw new Error(`${list.groupVersion} has no resource "${name}"`);
  return found;
}

describe('discovery', () => {
  it('/version reports a Kubernetes version', async () => {
    const res = await target().http.get('/version');
    expect(res.status).toBe(200);
    const v = res.json();
    expect(v.major).toMatch(/^\d+$/);
    expect(v.minor).toMatch(/^\d+\+?$/);
    expect(v.gitVersion).toMatch(/^v\d+\.\d+\.\d+/);
    expect(typeof v.platform).toBe('string');
  });

  it.each(['/healthz', '/readyz', '/livez'])('%s answers ok', async (path) => {
    const res = await target().http.get(path, { accept: '*/*' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('ok');
  });

  it('/api lists v1 as APIVersions', async () => {
    const body = (await target().http.get('/api')).json();
    expect(body.kind).toBe('APIVersions');
    expect(body.versions).toEqual(['v1']);
  });

  it('/api/v1 describes core resources with verbs, shortNames, categories and scope', async () => {
    const list = (await target().http.get('/api/v1')).json();
    expect(list.kind).toBe('APIResourceList');
    expect(list.groupVersion).toBe('v1');
    const cm = resource(list, 'configmaps');
    expect(cm).toMatchObject({
      kind: 'ConfigMap',
      namespaced: true,
      singularName: 'configmap',
      shortNames: ['cm'],
    });
    expect([...cm.verbs].sort()).toEqual(
      ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'].sort(),
    );
    const ns = resource(list, 'namespaces');
    expect(ns).toMatchObject({ kind: 'Namespace', namespaced: false, shortNames: ['ns'] });
    const pods = resource(list, 'pods');
    expect(pods.shortNames).toEqual(['po']);
    expect(pods.categories).toEqual(['all']);
    expect(resource(list, 'pods/status')).toMatchObject({ kind: 'Pod', namespaced: true });
    expect(resource(list, 'pods/status').verbs.sort()).toEqual(['get', 'patch', 'update']);
    expect(resource(list, 'services').shortNames).toEqual(['svc']);
    for (const name of ['secrets', 'serviceaccounts', 'events', 'persistentvolumeclaims'])
      resource(list, name);
  });

  it('/apis lists the built-in groups with a preferred version', async () => {
    const body = (await target().http.get('/apis')).json();
    expect(body.kind).toBe('APIGroupList');
    const groups = new Map<string, any>(body.groups.map((g: any) => [g.name, g]));
    for (const [group, version] of [
      ['apps', 'v1'],
      ['batch', 'v1'],
      ['autoscaling', 'v2'],
      ['networking.k8s.io', 'v1'],
      ['coordination.k8s.io', 'v1'],
      ['apiextensions.k8s.io', 'v1'],
      ['rbac.authorization.k8s.io', 'v1'],
      ['events.k8s.io', 'v1'],
      ['authentication.k8s.io', 'v1'],
    ]) {
      const g = groups.get(group);
      expect(g).toBeDefined();
      expect(g.preferredVersion).toEqual({ groupVersion: `${group}/${version}`, version });
    }
    expect(groups.get('autoscaling').versions.map((v: any) => v.version)).toEqual(
      expect.arrayContaining(['v1', 'v2']),
    );
  });

  it('/apis/apps/v1 describes deployments with their subresources', async () => {
    const list = (await target().http.get('/apis/apps/v1')).json();
    expect(list.groupVersion).toBe('apps/v1');
    const deploy = resource(list, 'deployments');
    expect(deploy).toMatchObject({
      kind: 'Deployment',
      namespaced: true,
      shortNames: ['deploy'],
      categories: ['all'],
    });
    expect(resource(list, 'deployments/scale')).toMatchObject({
      kind: 'Scale',
      group: 'autoscaling',
      version: 'v1',
    });
    expect(resource(list, 'deployments/status').kind).toBe('Deployment');
    for (const name of ['replicasets', 'statefulsets', 'daemonsets']) resource(list, name);
  });

  it('serves the other groups the platform needs', async () => {
    const http = target().http;
    const expected: Record<string, string[]> = {
      '/apis/batch/v1': ['jobs', 'cronjobs'],
      '/apis/autoscaling/v2': ['horizontalpodautoscalers'],
      '/apis/autoscaling/v1': ['horizontalpodautoscalers'],
      '/apis/networking.k8s.io/v1': ['ingresses'],
      '/apis/coordination.k8s.io/v1': ['leases'],
      '/apis/apiextensions.k8s.io/v1': ['customresourcedefinitions'],
      '/apis/rbac.authorization.k8s.io/v1': ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'],
      '/apis/events.k8s.io/v1': ['events'],
      '/apis/authentication.k8s.io/v1': ['tokenreviews'],
      '/apis/authorization.k8s.io/v1': ['subjectaccessreviews'],
    };
    for (const [path, names] of Object.entries(expected)) {
      const list = (await http.get(path)).json();
      for (const name of names) resource(list, name);
    }
    const crd = resource(
      (await http.get('/apis/apiextensions.k8s.io/v1')).json(),
      'customresourcedefinitions',
    );
    expect(crd).toMatchObject({ namespaced: false, shortNames: ['crd', 'crds'] });
  });

  it('an unknown group version is 404 NotFound', async () => {
    const res = await target().http.get('/apis/nothing.example.com/v1');
    expect(res.status).toBe(404);
  });

  // A real kube-apiserver builds the v2 document lazily: 15 s on first request after CRD changes.
  it('/api/v1 lists the pod connect subresources, nodes, and discovery.k8s.io/v1 lists endpointslices', async () => {
    const core = (await target().http.get('/api/v1')).json();
    expect(resource(core, 'pods/log')).toMatchObject({ namespaced: true, kind: 'Pod', verbs: ['get'] });
    expect(resource(core, 'pods/exec')).toMatchObject({ kind: 'PodExecOptions', verbs: ['create', 'get'] });
    expect(resource(core, 'pods/attach')).toMatchObject({
      kind: 'PodAttachOptions',
      verbs: ['create', 'get'],
    });
    expect(resource(core, 'pods/portforward')).toMatchObject({
      kind: 'PodPortForwardOptions',
      verbs: ['create', 'get'],
    });
    expect(resource(core, 'nodes')).toMatchObject({ namespaced: false, kind: 'Node', shortNames: ['no'] });
    expect(resource(core, 'nodes/status')).toMatchObject({ kind: 'Node', verbs: ['get', 'patch', 'update'] });
    const slices = (await target().http.get('/apis/discovery.k8s.io/v1')).json();
    expect(resource(slices, 'endpointslices')).toMatchObject({ namespaced: true, kind: 'EndpointSlice' });
  });

  it('/openapi/v2 serves the definitions kubectl reads', async () => {
    const res = await target().http.get('/openapi/v2');
    expect(res.status).toBe(200);
    const doc = res.json();
    expect(doc.swagger).toBe('2.0');
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment']).toBeDefined();
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', kind: 'Deployment', version: 'v1' },
    ]);
  }, 60_000);

  it('/openapi/v3 schemas describe the fields of a kind (what kubectl explain walks)', async () => {
    const doc = (await target().http.get('/openapi/v3/apis/apps/v1')).json();
    const schemas = doc.components.schemas;
    const deref = (s: any) => {
      const ref = s?.$ref ?? s?.allOf?.[0]?.$ref;
      return ref ? schemas[String(ref).replace('#/components/schemas/', '')] : s;
    };
    const deployment = schemas['io.k8s.api.apps.v1.Deployment'];
    expect(deployment['x-kubernetes-group-version-kind']).toEqual([
      { group: 'apps', kind: 'Deployment', version: 'v1' },
    ]);
    const spec = deref(deployment.properties.spec);
    expect(spec.properties.replicas).toMatchObject({ type: 'integer', format: 'int32' });
    expect(deref(spec.properties.selector).properties.matchLabels).toMatchObject({ type: 'object' });
    const patch = Object.values(doc.paths as Record<string, any>).find(
      (p) => p.patch?.['x-kubernetes-group-version-kind']?.kind === 'Deployment',
    );
    expect(patch.patch.parameters.map((p: any) => p.name)).toContain('fieldValidation');
  }, 60_000);

  it('/openapi/v2 answers protobuf when kubectl asks for it', async () => {
    // kubectl validates client-side with this document when /openapi/v3 cannot vouch for
    // server-side validation (a custom resource whose CRD is in the same file).
    const res = await target().http.get('/openapi/v2', {
      accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    // gnostic's Document: field 1 (swagger) first, a 3-byte string.
    expect(res.text.startsWith('\n\x032.0')).toBe(true);
  }, 60_000);

  it('/openapi/v2 answers 406 for a media type it cannot produce', async () => {
    const res = await target().http.get('/openapi/v2', { accept: 'application/vnd.kubernetes.protobuf' });
    expect(res.status).toBe(406);
  }, 60_000);
});
