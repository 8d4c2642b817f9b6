import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOCAL_USER } from '../../server/auth.js';
import { rbacAllows, type NonResourceAttributes, type ResourceAttributes } from '../../server/rbac.js';
import { sendJson } from '../messages.js';
import { invalidField, readCreateBody } from './create-only.js';
import type { ResourceContext } from './resource.js';

interface SubjectAccessReviewSpec {
  user?: string;
  groups?: string[];
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
}

/**
 * authorization.k8s.io/v1 SubjectAccessReview: the local admin (its bearer
 * token), or anyone in system:masters, may do everything; any other subject
 * (a ServiceAccount's token from TokenRequest) what the stored RBAC objects
 * grant it. Enough for a webhook-style authorizer (the REST API's
 * `--auth kubernetes`) to work against the local plane as on a real cluster.
 */
export async function handleSubjectAccessReview(
  ctx: ResourceContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
): Promise<void> {
  const spec = (await readCreateBody<{ spec?: SubjectAccessReviewSpec }>(req, method))?.spec ?? {};
  const invalid = (field: string, message: string) =>
    invalidField('SubjectAccessReview', 'authorization.k8s.io', '', field, {
      reason: 'FieldValueInvalid',
      message,
    });
  if (!spec.resourceAttributes === !spec.nonResourceAttributes)
    throw invalid('spec', 'exactly one of resourceAttributes or nonResourceAttributes must be specified');
  if (!spec.user && !(spec.groups ?? []).length)
    throw invalid('spec.user', 'at least one of user or group must be specified');
  const admin = spec.user === LOCAL_USER.username || (spec.groups ?? []).includes('system:masters');
  const allowedBy = admin
    ? 'the local admin may do everything'
    : rbacAllows(
        (plural, namespace) =>
          ctx.objects.list(ctx.objects.info('rbac.authorization.k8s.io', 'v1', plural), namespace)
            .items as never[],
        spec,
        { resource: spec.resourceAttributes, nonResource: spec.nonResourceAttributes },
      );
  sendJson(res, 201, {
    kind: 'SubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec,
    status: allowedBy ? { allowed: true, reason: allowedBy } : { allowed: false },
  });
}
