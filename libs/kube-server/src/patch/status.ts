/** The ApiErrors the patch module answers with, worded as kube-apiserver words them. */
import { ApiError, type StatusCause } from '../errors.js';

/** 400, as `errors.NewBadRequest`. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message);
}

/**
 * 422 as kube's `NewGenericServerResponse(422, ...)`: its message is fixed and drops the
 * underlying error, so we keep that error as a cause for the client.
 */
export function genericInvalid(detail: string, field?: string): ApiError {
  const cause: StatusCause = { reason: 'FieldValueInvalid', message: detail, ...(field ? { field } : {}) };
  return new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', {
    causes: [cause],
  });
}

/** 422 as `errors.NewInvalid(schema.GroupKind{}, "", field.Invalid(field.NewPath("patch"), value, detail))`. */
export function invalidPatchResult(value: string, detail: string): ApiError {
  const message = `Invalid value: ${JSON.stringify(value)}: ${detail}`;
  return new ApiError(422, 'Invalid', ` "" is invalid: patch: ${message}`, {
    causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
  });
}

/** 500 with no reason: kube's ErrorToAPIStatus answers a plain Go error (not a Status error) with its text alone. */
export function internalError(message: string): ApiError {
  return new ApiError(500, '', message);
}

/** 415 for a strategic merge patch on a kind without a Go struct (custom resources). */
export function strategicUnsupported(): ApiError {
  const accepted = [
    'application/json-patch+json',
    'application/merge-patch+json',
    'application/apply-patch+yaml',
  ];
  return new ApiError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
  );
}
