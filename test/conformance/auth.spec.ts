import { eventually, isRealServer, useTarget } from './target.js';

/** Authentication: the bearer token in the kubeconfig, 401 in the Status format otherwise. */
const target = useTarget();
const UNAUTHORIZED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

describe('authentication', () => {
  it('a wrong bearer token is 401 Unauthorized', async () => {
    const res = await target().http.get('/api/v1/namespaces', {
      anonymous: true,
      headers: { Authorization: 'Bearer not-the-token' },
    });
    expect(res.status).toBe(401);
    expect(res.json()).toEqual(UNAUTHORIZED);
  });

  if (!isRealServer()) {
    // A real server lets anonymous requests through to authorization (403) unless configured otherwise.
    it('no credentials at all is 401 Unauthorized (embedded server)', async () => {
      const res = await target().http.get('/api/v1/namespaces', { anonymous: true });
      expect(res.status).toBe(401);
      expect(res.json()).toEqual(UNAUTHORIZED);
      const write = await target().http.post(
        '/api/v1/namespaces',
        { metadata: { name: 'anon' } },
        { anonymous: true },
      );
      expect(write.status).toBe(401);
    });

    it('the kubeconfig user is a bearer token that TokenReview accepts (embedded server)', async () => {
      const user = target().kc.getCurrentUser();
      expect(user?.token).toMatch(/^.{32,}$/);
      const res = await target().http.post('/apis/authentication.k8s.io/v1/tokenreviews', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: user!.token },
      });
      expect(res.status).toBe(201);
      expect(res.json().status.authenticated).toBe(true);
      expect(typeof res.json().status.user.username).toBe('string');
      const bogus = await target().http.post('/apis/authentication.k8s.io/v1/tokenreviews', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: 'bogus' },
      });
      expect(bogus.json().status.authenticated).toBeFalsy();
    });

    it('SubjectAccessReview: the local admin may do anything, another user nothing (embedded server)', async () => {
      const review = async (user: string) => {
        const res = await target().http.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user,
            resourceAttributes: {
              verb: 'delete',
              group: 'core.oam.dev',
              resource: 'applications',
              namespace: 'x',
            },
          },
        });
        expect(res.status).toBe(201);
        return res.json().status.allowed as boolean;
      };
      const user = target().kc.getCurrentUser()!;
      const tr = await target().http.post('/apis/authentication.k8s.io/v1/tokenreviews', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: user.token },
      });
      expect(await review(tr.json().status.user.username)).toBe(true);
      expect(await review('someone-else')).toBe(false);
      const bad = await target().http.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: { user: 'x' },
      });
      expect(bad.status).toBe(422);
    });

    it('the kubeconfig carries the CA, never insecure-skip-tls-verify (embedded server)', async () => {
      const cluster = target().kc.getCurrentCluster()!;
      expect(cluster.skipTLSVerify).toBeFalsy();
      expect(cluster.caData ?? cluster.caFile).toBeTruthy();
      expect(cluster.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(target().kc.getCurrentContext()).toBe('oam-local');
    });
  }
});

/**
 * A second identity: a ServiceAccount's token (TokenRequest), which TokenReview
 * accepts, and SubjectAccessReviews for it that follow the RBAC objects.
 */
describe('ServiceAccount tokens and RBAC in SubjectAccessReview', () => {
  const review = async (user: string, groups: string[], attributes: Record<string, unknown>) => {
    const res = await target().http.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: { user, groups, resourceAttributes: attributes },
    });
    expect(res.status).toBe(201);
    return res.json().status.allowed === true;
  };
  const create = async (path: string, body: object) => {
    const res = await target().http.post(path, body);
    expect([path, res.status]).toEqual([path, 201]);
    return res.json();
  };

  it('TokenRequest gives a token TokenReview maps to the ServiceAccount; Roles, ClusterRoles and bindings decide', async () => {
    const ns = await target().namespace('sa');
    const other = await target().namespace('sa-other');
    await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'viewer' } });
    const tr = await create(`/api/v1/namespaces/${ns}/serviceaccounts/viewer/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 3600 },
    });
    expect(tr.kind).toBe('TokenRequest');
    expect(Date.parse(tr.status.expirationTimestamp)).toBeGreaterThan(Date.now());
    const reviewed = await create('/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: tr.status.token },
    });
    expect(reviewed.status.authenticated).toBe(true);
    const { username, groups } = reviewed.status.user;
    expect(username).toBe(`system:serviceaccount:${ns}:viewer`);
    expect(groups).toEqual(
      expect.arrayContaining(['system:serviceaccounts', `system:serviceaccounts:${ns}`]),
    );

    const get = { verb: 'get', group: 'core.oam.dev', resource: 'applications', namespace: ns };
    expect(await review(username, groups, get)).toBe(false);

    await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, {
      metadata: { name: 'app-reader' },
      rules: [{ apiGroups: ['core.oam.dev'], resources: ['applications'], verbs: ['get', 'list'] }],
    });
    await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, {
      metadata: { name: 'viewer-reads' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'app-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'viewer', namespace: ns }],
    });
    await eventually(() => review(username, groups, get), 'the RoleBinding to allow get');
    expect(await review(username, groups, { ...get, verb: 'delete' })).toBe(false);
    expect(await review(username, groups, { ...get, namespace: other })).toBe(false);
    expect(await review(username, groups, { ...get, resource: 'components' })).toBe(false);
    expect(await review('someone-else', ['system:authenticated'], get)).toBe(false);

    // A ClusterRole bound by a RoleBinding counts in that namespace only; by a ClusterRoleBinding, everywhere.
    const clusterRole = target().unique('oam-sa-deleter');
    await create('/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      metadata: { name: clusterRole },
      rules: [
        { apiGroups: ['core.oam.dev'], resources: ['*'], verbs: ['delete'], resourceNames: ['only-this'] },
      ],
    });
    target().defer(async () => {
      await target().http.delete(`/apis/rbac.authorization.k8s.io/v1/clusterroles/${clusterRole}`);
    });
    await create(`/apis/rbac.authorization.k8s.io/v1/namespaces/${other}/rolebindings`, {
      metadata: { name: 'viewer-deletes' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
      subjects: [{ kind: 'Group', name: `system:serviceaccounts:${ns}` }],
    });
    const del = { ...get, verb: 'delete', namespace: other, name: 'only-this' };
    await eventually(() => review(username, groups, del), 'the ClusterRole bound in the other namespace');
    expect(await review(username, groups, { ...del, name: 'another' })).toBe(false);
    expect(await review(username, groups, { ...del, namespace: ns })).toBe(false);
    const crb = target().unique('oam-sa-deleter');
    await create('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: crb },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
      subjects: [{ kind: 'User', name: username }],
    });
    target().defer(async () => {
      await target().http.delete(`/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${crb}`);
    });
    await eventually(
      () => review(username, groups, { ...del, namespace: ns }),
      'the ClusterRoleBinding to allow it everywhere',
    );

    // Deleting the ServiceAccount invalidates its tokens.
    expect((await target().http.delete(`/api/v1/namespaces/${ns}/serviceaccounts/viewer`)).status).toBe(200);
    await eventually(async () => {
      const again = await create('/apis/authentication.k8s.io/v1/tokenreviews', {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token: tr.status.token },
      });
      return !again.status.authenticated;
    }, 'the deleted ServiceAccount’s token to be refused');
  });

  it('TokenRequest: 404 for a missing ServiceAccount, 422 below 10 minutes; a forged token is refused', async () => {
    const ns = await target().namespace('sa');
    const missing = await target().http.post(`/api/v1/namespaces/${ns}/serviceaccounts/nobody/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    });
    expect(missing.status).toBe(404);
    await create(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'short' } });
    const short = await target().http.post(`/api/v1/namespaces/${ns}/serviceaccounts/short/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: 60 },
    });
    expect(short.status).toBe(422);
    const tr = await create(`/api/v1/namespaces/${ns}/serviceaccounts/short/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: {},
    });
    const token: string = tr.status.token;
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    const reviewed = await create('/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: forged },
    });
    expect(reviewed.status.authenticated).toBeFalsy();
  });
});
