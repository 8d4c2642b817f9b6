import type { IncomingMessage, ServerResponse } from 'node:http';
import { issueServiceAccountToken } from '../../server/serviceaccount-tokens.js';
import { sendJson } from '../messages.js';
import { invalidField, readCreateBody } from './create-only.js';
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
  const body = await readCreateBody<{ spec?: { expirationSeconds?: number; audiences?: string[] } }>(
    req,
    method,
  );
  const spec = { audiences: [] as string[], ...(body?.spec ?? {}) };
  const seconds = spec.expirationSeconds ?? 3600;
  if (!Number.isInteger(seconds) || seconds < MIN_SECONDS)
    throw invalidField('TokenRequest', 'authentication.k8s.io', name, 'spec.expirationSeconds', {
      reason: 'FieldValueInvalid',
      message: 'may not specify a duration less than 10 minutes',
      value: String(seconds),
    });
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
