import type { IncomingMessage, ServerResponse } from 'node:http';
import { issueServiceAccountToken } from '../../server/serviceaccount-tokens.js';
import { ApiError } from '../../errors.js';
import { decodeBody, readBody, sendJson } from '../messages.js';
import type { ResourceInfo } from '../../resources/builtin.js';
import type { ResourceContext } from './resource.js';

const MIN_SECONDS = 600;

/**
 * POST serviceaccounts/{name}/token (TokenRequest, `kubectl create token`):
 * a bearer token for the ServiceAccount that TokenReview accepts until it
 * expires or the ServiceAccount is deleted. The embedded server's own API
 * still takes only its admin token; these identify callers to services
 * that review tokens (the REST API's `--auth kubernetes`).
 */
export async function handleTokenRequest(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceInfo,
  namespace: string,
  name: string,
  method: string,
): Promise<void> {
  if (method !== 'POST')
    throw new ApiError(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
    );
  const body = decodeBody(await readBody(req), req.headers['content-type']) as {
    spec?: { expirationSeconds?: number; audiences?: string[] };
  };
  const spec = { audiences: [] as string[], ...(body?.spec ?? {}) };
  const seconds = spec.expirationSeconds ?? 3600;
  if (!Number.isInteger(seconds) || seconds < MIN_SECONDS)
    throw new ApiError(
      422,
      'Invalid',
      `TokenRequest.authentication.k8s.io "${name}" is invalid: spec.expirationSeconds: Invalid value: ${seconds}: may not specify a duration less than 10 minutes`,
      {
        group: 'authentication.k8s.io',
        kind: 'TokenRequest',
        name,
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'may not specify a duration less than 10 minutes',
            field: 'spec.expirationSeconds',
          },
        ],
      },
    );
  const account = ctx.objects.get(info, namespace, name); // 404 when there is no such ServiceAccount
  const exp = Math.floor(Date.now() / 1000) + seconds;
  const token = issueServiceAccountToken(ctx.token, {
    namespace,
    name,
    uid: account.metadata.uid as string,
    exp,
  });
  sendJson(res, 201, {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { name, namespace, creationTimestamp: null },
    spec: { ...spec, expirationSeconds: seconds },
    status: { token, expirationTimestamp: new Date(exp * 1000).toISOString().replace(/\.\d+Z$/, 'Z') },
  });
}
