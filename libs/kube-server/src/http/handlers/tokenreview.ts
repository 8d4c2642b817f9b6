import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOCAL_USER, tokenMatches } from '../../server/auth.js';
import { ApiError } from '../../errors.js';
import { decodeBody, readBody, sendJson } from '../messages.js';
import type { ResourceContext } from './resource.js';

/** authentication.k8s.io/v1 TokenReview: the local token authenticates as the local admin; anything else does not. */
export async function handleTokenReview(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
): Promise<void> {
  if (method !== 'POST')
    throw new ApiError(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
    );
  const body = decodeBody(await readBody(req), req.headers['content-type']) as {
    spec?: { token?: string; audiences?: string[] };
  };
  const presented = body?.spec?.token;
  if (typeof presented !== 'string' || !presented) {
    throw new ApiError(
      422,
      'Invalid',
      'TokenReview.authentication.k8s.io "" is invalid: spec.token: Required value',
      {
        group: 'authentication.k8s.io',
        kind: 'TokenReview',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.token' }],
      },
    );
  }
  const ok = !!ctx.token && tokenMatches(ctx.token, presented);
  sendJson(res, 201, {
    kind: 'TokenReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: body.spec,
    status: ok
      ? { authenticated: true, user: LOCAL_USER, audiences: body.spec?.audiences ?? [] }
      : { authenticated: false, error: 'invalid bearer token' },
  });
}
