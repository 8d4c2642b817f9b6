import { deepEqual, isJsonObject } from './values.js';

/**
 * A value as Go code sees it after decoding into structs: nulls, empty maps
 * and empty lists are dropped from objects (recursively), since a Go struct
 * cannot tell them from absent; list items are kept, each normalized. So
 * `resources: {}` or `creationTimestamp: null` in a template (kubectl rollout
 * undo sends them) normalize to their absence. Stable to hash.
 */
export function semanticValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(semanticValue);
  if (isJsonObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = semanticValue(v);
      if (n === null || n === undefined || isEmpty(n)) continue;
      out[k] = n;
    }
    return out;
  }
  return value;
}

/**
 * apiequality.Semantic.DeepEqual on JSON: equal after `semanticValue`, with
 * null, an empty map and an empty list equal to absent at the top too.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  return deepEqual(absentIfEmpty(semanticValue(a)), absentIfEmpty(semanticValue(b)));
}

function isEmpty(v: unknown): boolean {
  return Array.isArray(v) ? v.length === 0 : isJsonObject(v) && Object.keys(v).length === 0;
}

function absentIfEmpty(v: unknown): unknown {
  return v === null || isEmpty(v) ? undefined : v;
}
