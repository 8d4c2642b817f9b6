import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOCAL_USER, tokenMatches } from '../../server/auth.js';
import { serviceAccountUser, verifyServiceAccountToken } from '../../server/serviceaccount-tokens.js';
import { ApiError } from '../../errors.js';
import { sendJson } from '../messages.js';
import { invalidField, readCreateBody } from './create-only.js';
import type { ResourceContext } from './resource.js';

/**
 * authentication.k8s.io/v1 TokenReview: the local token authenticates as the
 * local admin; a ServiceAccount token from TokenRequest as that ServiceAccount
 * while it has not expired and the ServiceAccount (the same uid) exists;
 * anything else does not.
 */
export async function handleTokenReview(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
): Promise<void> {
  const body = await readCreateBody<{ spec?: { token?: string; audiences?: string[] } }>(req, method);
  const presented = body?.spec?.token;
  if (typeof presented !== 'string' || !presented)
    throw invalidField('TokenReview', 'authentication.k8s.io', '', 'spec.token', {
      reason: 'FieldValueRequired',
      message: 'Required value',
    });
  const user = tokenMatches(ctx.token, presented) ? LOCAL_USER : serviceAccount(ctx, presented);
  sendJson(res, 201, {
    kind: 'TokenReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: body?.spec,
    status: user
      ? { authenticated: true, user, audiences: body.spec?.audiences ?? [] }
      : { authenticated: false, error: 'invalid bearer token' },
  });
}

function serviceAccount(ctx: ResourceContext, token: string): typeof LOCAL_USER | undefined {
  const claims = verifyServiceAccountToken(ctx.token, token, Date.now() / 1000);
  if (!claims) return undefined;
  const info = ctx.objects.info('', 'v1', 'serviceaccounts');
  try {
    const current = ctx.objects.get(info, claims.namespace, claims.name);
    return current.metadata.uid === claims.uid ? serviceAccountUser(claims) : undefined;
  } catch (err) {
    if (err instanceof ApiError && err.code === 404) return undefined;
    throw err;
  }
}
