import type { IncomingMessage } from 'node:http';
import { ApiError } from '../../errors.js';
import { decodeBody, readBody } from '../messages.js';

/**
 * The body of a request to a create-only endpoint (TokenReview,
 * SubjectAccessReview, TokenRequest): 405 for any method but POST.
 */
export async function readCreateBody<T>(req: IncomingMessage, method: string): Promise<T | undefined> {
  if (method !== 'POST')
    throw new ApiError(
      405,
      'MethodNotAllowed',
      'the server does not allow this method on the requested resource',
    );
  return decodeBody(await readBody(req), req.headers['content-type']) as T | undefined;
}

/** 422 Invalid in kube-apiserver's words for one field of such a request. */
export function invalidField(
  kind: string,
  group: string,
  name: string,
  field: string,
  cause: { reason: 'FieldValueInvalid' | 'FieldValueRequired'; message: string; value?: string },
): ApiError {
  const value = cause.value === undefined ? '' : `Invalid value: ${cause.value}: `;
  return new ApiError(
    422,
    'Invalid',
    `${kind}.${group} "${name}" is invalid: ${field}: ${value}${cause.message}`,
    {
      group,
      kind,
      ...(name ? { name } : {}),
      causes: [{ reason: cause.reason, message: cause.message, field }],
    },
  );
}
