import type { JsonObject } from '../object/types.js';
import { deepEqual, isJsonObject } from '../json/values.js';
import { deepCopy } from '../object/copy.js';

/**
 * RFC 7386 JSON merge patch (evanphx/json-patch MergePatch, as kube-apiserver and
 * KubeVela's `+patchStrategy=jsonMergePatch` apply it): objects merge recursively,
 * `null` deletes a key, anything else (lists included) replaces. Pure: the result
 * shares no mutable structure with either input.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  return merge(deepCopy(target), patch);
}

function merge(target: unknown, patch: unknown): unknown {
  if (!isJsonObject(patch)) return deepCopy(patch);
  const result: JsonObject = isJsonObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = merge(result[key], value);
  }
  return result;
}

/** The merge patch that turns `from` into `to` (so `mergePatch(from, createMergePatch(from, to))` equals `to`). */
export function createMergePatch(from: unknown, to: unknown): unknown {
  if (!isJsonObject(from) || !isJsonObject(to)) return deepCopy(to);
  const patch: JsonObject = {};
  for (const key of Object.keys(from)) {
    if (!(key in to)) patch[key] = null;
  }
  for (const [key, value] of Object.entries(to)) {
    if (!(key in from)) patch[key] = deepCopy(value);
    else if (!deepEqual(from[key], value)) patch[key] = createMergePatch(from[key], value);
  }
  return patch;
}
