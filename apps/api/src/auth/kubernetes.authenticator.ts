import { GROUP } from '#api';
import type { KubeTransport } from '#runtime';
import type { AccessRequest, Authenticator, Principal } from './authenticator.js';

interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
}

/**
 * `--auth kubernetes`: the bearer token is checked with a TokenReview and
 * every request with a SubjectAccessReview for that user (group core.oam.dev,
 * the route's resource and verb, the request's namespace), so the cluster's
 * RBAC decides, as it would for kubectl. The API then acts as its own
 * ServiceAccount. Each review is one request to the API server; failures
 * propagate (503), never allow.
 */
export class KubernetesAuthenticator implements Authenticator {
  private readonly users = new WeakMap<Principal, NonNullable<TokenReviewStatus['user']>>();

  constructor(private readonly transport: KubeTransport) {}

  async authenticate(token: string): Promise<Principal | undefined> {
    const review = await this.transport.request<{ status?: TokenReviewStatus }>({
      verb: 'create',
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/tokenreviews',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    });
    const user = review.status?.user;
    if (!review.status?.authenticated || !user?.username) return undefined;
    const principal = { name: user.username, groups: user.groups ?? [], id: `user:${user.username}` };
    this.users.set(principal, user);
    return principal;
  }

  async authorize(principal: Principal, access: AccessRequest): Promise<boolean> {
    const user = this.users.get(principal);
    const review = await this.transport.request<{ status?: { allowed?: boolean } }>({
      verb: 'create',
      method: 'POST',
      path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: principal.name,
          uid: user?.uid,
          groups: principal.groups,
          extra: user?.extra,
          resourceAttributes: {
            group: GROUP,
            resource: access.resource,
            verb: access.verb,
            namespace: access.namespace,
            name: access.name,
          },
        },
      },
    });
    return review.status?.allowed === true;
  }
}
