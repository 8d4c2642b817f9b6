import { rbacAllows, type RbacLookup } from './rbac.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- roles and bindings of every RBAC kind, as the lookup hands them over
const objects: Record<string, any[]> = {
  clusterroles: [
    {
      metadata: { name: 'health' },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics/*'] }],
    },
    {
      metadata: { name: 'scaler' },
      rules: [{ apiGroups: ['apps'], resources: ['*/scale'], verbs: ['update'] }],
    },
  ],
  clusterrolebindings: [
    {
      metadata: { name: 'health' },
      roleRef: { kind: 'ClusterRole', name: 'health' },
      subjects: [{ kind: 'Group', name: 'monitoring' }],
    },
    // A ClusterRoleBinding cannot bind a Role: ignored.
    {
      metadata: { name: 'bad' },
      roleRef: { kind: 'Role', name: 'all' },
      subjects: [{ kind: 'User', name: 'u' }],
    },
  ],
  'roles/a': [
    {
      metadata: { name: 'all', namespace: 'a' },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    },
  ],
  'rolebindings/a': [
    {
      metadata: { name: 'scaler', namespace: 'a' },
      roleRef: { kind: 'ClusterRole', name: 'scaler' },
      subjects: [{ kind: 'ServiceAccount', name: 'hpa' }], // namespace defaults to the binding's
    },
  ],
};
const lookup: RbacLookup = (plural, namespace) =>
  objects[namespace ? `${plural}/${namespace}` : plural] ?? [];

describe('rbacAllows', () => {
  it('non-resource URLs: exact and prefix*', () => {
    const as = { user: 'm', groups: ['monitoring'] };
    expect(rbacAllows(lookup, as, { nonResource: { verb: 'get', path: '/healthz' } })).toMatch(/"health"/);
    expect(rbacAllows(lookup, as, { nonResource: { verb: 'get', path: '/metrics/x' } })).toBeTruthy();
    expect(rbacAllows(lookup, as, { nonResource: { verb: 'get', path: '/version' } })).toBeUndefined();
    expect(rbacAllows(lookup, as, { nonResource: { verb: 'post', path: '/healthz' } })).toBeUndefined();
  });

  it('a ServiceAccount subject without a namespace is the binding’s; */scale matches subresources only', () => {
    const hpa = { user: 'system:serviceaccount:a:hpa' };
    const scale = {
      verb: 'update',
      group: 'apps',
      resource: 'deployments',
      subresource: 'scale',
      namespace: 'a',
    };
    expect(rbacAllows(lookup, hpa, { resource: scale })).toMatch(/RoleBinding "scaler"/);
    expect(rbacAllows(lookup, hpa, { resource: { ...scale, subresource: undefined } })).toBeUndefined();
    expect(rbacAllows(lookup, hpa, { resource: { ...scale, namespace: 'b' } })).toBeUndefined();
    expect(rbacAllows(lookup, { user: 'system:serviceaccount:b:hpa' }, { resource: scale })).toBeUndefined();
  });

  it('a Role bound by a ClusterRoleBinding grants nothing', () => {
    const get = { verb: 'get', group: '', resource: 'pods', namespace: 'a' };
    expect(rbacAllows(lookup, { user: 'u' }, { resource: get })).toBeUndefined();
  });
});
