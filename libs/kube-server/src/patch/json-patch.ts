/**
 * JSON patch (RFC 6902) with kube-apiserver's answers: a body that is not a list of
 * operation objects is 400 (decoding), more than 10000 operations is 413, and every
 * operation that does not apply (a failed `test`, a missing path, an unknown op) is the
 * generic 422 Invalid; the failing operation is named in details.causes.
 */
import { ApiError } from '../errors.js';
import { badRequest, genericInvalid } from './status.js';
import { applyJsonPatch, isJsonObject, JsonPatchError } from '#kube-core';

const MAX_OPERATIONS = 10000;

function decodeOperations(patch: unknown): Record<string, unknown>[] {
  if (!Array.isArray(patch)) {
    const got =
      patch === null
        ? 'null'
        : Array.isArray(patch)
          ? 'array'
          : typeof patch === 'object'
            ? 'object'
            : typeof patch;
    throw badRequest(`json: cannot unmarshal ${got} into Go value of type jsonpatch.Patch`);
  }
  patch.forEach((op, i) => {
    if (!isJsonObject(op)) {
      throw badRequest(
        `json: cannot unmarshal ${Array.isArray(op) ? 'array' : typeof op} into Go value of type jsonpatch.Operation (operation ${i})`,
      );
    }
  });
  if (patch.length > MAX_OPERATIONS) {
    throw new ApiError(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_OPERATIONS}, got ${patch.length}`,
    );
  }
  return patch as Record<string, unknown>[];
}

/** Applies an RFC 6902 patch ('#kube-core' applyJsonPatch) to a copy of `live`. */
export function applyJsonPatchRequest(live: object, patch: unknown): object {
  const operations = decodeOperations(patch);
  let doc: unknown;
  try {
    doc = applyJsonPatch(live, operations);
  } catch (err) {
    if (!(err instanceof JsonPatchError)) throw err;
    throw genericInvalid(
      `operation ${err.index} (${JSON.stringify(operations[err.index].op)} ${err.path}): ${err.message}`,
      err.path,
    );
  }
  if (!isJsonObject(doc)) {
    throw genericInvalid(
      `the patched document is ${Array.isArray(doc) ? 'an array' : typeof doc}, not an object`,
    );
  }
  return doc;
}
