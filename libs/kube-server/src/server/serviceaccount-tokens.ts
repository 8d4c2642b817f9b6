import { createHmac, timingSafeEqual } from 'node:crypto';
import { LOCAL_USER } from './auth.js';

/** What a ServiceAccount token says: whose it is (the uid ties it to that object) and until when. */
export interface ServiceAccountClaims {
  namespace: string;
  name: string;
  uid: string;
  /** Unix seconds. */
  exp: number;
}

const PREFIX = 'oam-sa.';

// Signed with a key derived from the server's own bearer token, so tokens survive a restart with the state.
function sign(serverToken: string, payload: string): string {
  return createHmac('sha256', `serviceaccount-token:${serverToken}`).update(payload).digest('base64url');
}

/** A bearer token for a ServiceAccount (what TokenRequest, `kubectl create token`, hands out). */
export function issueServiceAccountToken(serverToken: string, claims: ServiceAccountClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${PREFIX}${payload}.${sign(serverToken, payload)}`;
}

/** The claims of a token this server signed and that has not expired; undefined for anything else. */
export function verifyServiceAccountToken(
  serverToken: string,
  token: string,
  nowSeconds: number,
): ServiceAccountClaims | undefined {
  if (!token.startsWith(PREFIX)) return undefined;
  const [payload, signature, ...rest] = token.slice(PREFIX.length).split('.');
  if (!payload || !signature || rest.length) return undefined;
  const expected = Buffer.from(sign(serverToken, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ServiceAccountClaims;
  return claims.exp > nowSeconds ? claims : undefined;
}

/** The user a ServiceAccount authenticates as, as kube-apiserver names it. */
export function serviceAccountUser(claims: ServiceAccountClaims): typeof LOCAL_USER {
  return {
    username: `system:serviceaccount:${claims.namespace}:${claims.name}`,
    uid: claims.uid,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${claims.namespace}`, 'system:authenticated'],
  };
}
