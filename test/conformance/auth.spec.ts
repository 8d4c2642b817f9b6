import { isRealServer, useTarget } from './target.js';

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
