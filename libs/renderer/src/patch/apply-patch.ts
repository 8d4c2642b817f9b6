import type { PatchKeys } from '../engines/engine.js';

/**
 * KubeVela's `// +patchStrategy=` markers travel in PatchKeys next to the
 * `// +patchKey=` field names, as values no Kubernetes field name can take.
 */
export const PATCH_STRATEGY = {
  /** The patch value replaces the target's value at that path, whatever its shape. */
  replace: '+replace',
  /** Maps keep only the keys the patch names (their values still merge); anything else is replaced. */
  retainKeys: '+retainKeys',
} as const;

type Json = unknown;
type JsonMap = Record<string, Json>;

/**
 * Merges a trait's `patch` into the workload the way KubeVela does: maps merge
 * recursively, scalars from the patch win, lists are replaced unless a patch
 * key applies to that path, in which case items with the same key value merge
 * and new items are appended in the patch's order. Pure: neither input is
 * modified; the result shares no mutable structure with them.
 */
export function applyPatch(target: object, patch: object, patchKeys: PatchKeys): object {
  return merge(target, patch, '', patchKeys) as object;
}

function merge(target: Json, patch: Json, path: string, keys: PatchKeys): Json {
  const rule = keys[path];
  if (rule === PATCH_STRATEGY.replace) return clone(patch);
  if (isMap(patch)) {
    if (!isMap(target)) return clone(patch);
    const retainOnly = rule === PATCH_STRATEGY.retainKeys;
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(target)) if (!retainOnly || k in patch) out[k] = clone(v);
    for (const [k, v] of Object.entries(patch)) {
      out[k] = k in target ? merge(target[k], v, childPath(path, k), keys) : clone(v);
    }
    return out;
  }
  if (Array.isArray(patch) && Array.isArray(target) && rule && !rule.startsWith('+')) {
    return mergeListByKey(target, patch, path, rule, keys);
  }
  return clone(patch);
}

function mergeListByKey(target: Json[], patch: Json[], path: string, key: string, keys: PatchKeys): Json[] {
  const itemPath = `${path}[]`;
  const out = target.map(clone);
  for (const item of patch) {
    const id = isMap(item) ? item[key] : undefined;
    const at = id === undefined ? -1 : out.findIndex((t) => isMap(t) && deepEqual(t[key], id));
    if (at >= 0) out[at] = merge(out[at], item, itemPath, keys);
    else out.push(clone(item));
  }
  return out;
}

function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function isMap(v: Json): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T>(v: T): T {
  return v === undefined ? v : structuredClone(v);
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
