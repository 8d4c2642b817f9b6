import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOCAL_USER } from '../../server/auth.js';
import { ApiError } from '../../errors.js';
import { decodeBody, readBody, sendJson } from '../messages.js';

interface SubjectAccessReviewSpec {
  user?: string;
  groups?: string[];
  resourceAttributes?: Record<string, unknown>;
  nonResourceAttributes?: Record<string, unknown>;
}

/**
 * authorization.k8s.io/v1 SubjectAccessReview. The embedded server has one
 * identity, the local admin (its bearer token): that user, or anyone in
 * system:masters, may do everything; any other subject nothing. Enough for
 * a webhook-style authorizer (the REST API's `--auth kubernetes`) to work
 * against the local plane as it does against a real cluster.
 */
export async function handleSubjectAccessReview(
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
    spec?: SubjectAccessReviewSpec;
  };
  const spec = body?.spec ?? {};
  const invalid = (field: string, message: string) =>
    new ApiError(
      422,
      'Invalid',
      `SubjectAccessReview.authorization.k8s.io "" is invalid: ${field}: ${message}`,
      {
        group: 'authorization.k8s.io',
        kind: 'SubjectAccessReview',
        causes: [{ reason: 'FieldValueInvalid', message, field }],
      },
    );
  if (!spec.resourceAttributes === !spec.nonResourceAttributes)
    throw invalid('spec', 'exactly one of resourceAttributes or nonResourceAttributes must be specified');
  if (!spec.user && !(spec.groups ?? []).length)
    throw invalid('spec.user', 'at least one of user or group must be specified');
  const allowed = spec.user === LOCAL_USER.username || (spec.groups ?? []).includes('system:masters');
  sendJson(res, 201, {
    kind: 'SubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec,
    status: allowed
      ? { allowed: true, reason: 'the local admin may do everything' }
      : { allowed: false, reason: 'the embedded server grants nothing to users other than its local admin' },
  });
}
