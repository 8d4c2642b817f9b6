/** JSON merge patch (RFC 7386), with kube-apiserver's answers to malformed patches. */
import { badRequest, invalidPatchResult } from './status.js';
import { cloneJson, deepEqual, isObject, type JsonObject } from './values.js';

/** RFC 7386 MergePatch: objects merge recursively, null deletes, anything else replaces. */
export function mergePatchValue(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJson(patch);
  const result: JsonObject = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatchValue(result[key], value);
  }
  return result;
}

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
  return mergePatchValue(cloneJson(live), patch) as object;
}

/** The merge patch that turns `from` into `to` (so `mergePatchValue(from, createMergePatch(from, to))` equals `to`). */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isObject(from) || !isObject(to)) return cloneJson(to);
  const patch: JsonObject = {};
  for (const key of Object.keys(from)) {
    if (!(key in to)) patch[key] = null;
  }
  for (const [key, value] of Object.entries(to)) {
    if (!(key in from)) patch[key] = cloneJson(value);
    else if (!deepEqual(from[key], value)) patch[key] = createMergePatch(from[key], value);
  }
  return patch;
}
