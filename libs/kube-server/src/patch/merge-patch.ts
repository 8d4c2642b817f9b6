/** JSON merge patch (RFC 7386, '#kube-core' mergePatch), with kube-apiserver's answers to malformed patches. */
import { mergePatch } from '#kube-core';
import { badRequest, invalidPatchResult } from './status.js';

/**
 * Applies a merge patch to a live object the way kube's jsonPatcher does: a null or scalar
 * patch is `Invalid JSON Patch` (400); an array patch replaces the document and then fails
 * to decode as an object (422).
 */
export function applyMergePatch(live: object, patch: unknown): object {
  if (patch === null || typeof patch !== 'object') throw badRequest('Invalid JSON Patch');
  if (Array.isArray(patch)) {
    throw invalidPatchResult(
      JSON.stringify(patch),
      'cannot unmarshal array into Go value of type map[string]interface {}',
    );
  }
  return mergePatch(live, patch) as object;
}
