import {
  applyJsonPatch,
  deepCopy,
  isJsonObject,
  JsonPatchError,
  mergePatch,
  type JsonObject,
  type JsonPatchErrorCode,
} from '#kube-core';
import type { PatchKeys } from '../engines/engine.js';
import { RenderError, type ErrorLocation } from '../errors.js';
import { directivesAt, type PatchDirectives } from './directives.js';

type Json = unknown;

export interface ApplyPatchOptions {
  /** Where the patch comes from (the trait): added to every error. */
  where?: ErrorLocation;
}

/**
 * Applies a trait's `patch` to the workload the way KubeVela does
 * (pkg/cue/model/sets, StrategyUnify):
 *
 * - `// +patchStrategy=jsonPatch` on `patch`: `patch.operations` is an RFC 6902 JSON patch;
 *   `// +patchStrategy=jsonMergePatch`: the patch is an RFC 7396 merge patch (`null` deletes).
 * - Otherwise the patch is unified with the workload, as CUE unifies: maps merge,
 *   equal values agree, different values are a conflict (an error naming the field and
 *   both values), and lists unify item by item, by index (the workload's lists are open,
 *   so a longer patch list adds items). Before that, KubeVela's strategic step:
 *   - `+patchKey=<field>` on a list (inherited by every list below it) lines the patch's
 *     items up with the workload's items that have the same `<field>`, and appends the
 *     rest; if no patch item has the field, the list unifies by index instead;
 *   - `+patchStrategy=replace` on a list: the patch's list replaces the workload's;
 *   - `+patchStrategy=retainKeys` on any other field: the patch's value replaces the
 *     workload's; on a keyed list: matched items are replaced rather than merged;
 *   - a list written `[...X]` (marked `+each`) unifies X with every item.
 *
 * Pure: neither input is modified; the result shares no mutable structure with them.
 */
export function applyPatch(
  target: object,
  patch: object,
  patchKeys: PatchKeys,
  options: ApplyPatchOptions = {},
): object {
  const root = directivesAt(patchKeys, '');
  const patchError = (detail: string) => {
    const error = new RenderError(detail, { path: 'patch' });
    return options.where ? error.within(options.where) : error;
  };
  try {
    if (root.jsonPatch) {
      const operations = (patch as JsonObject).operations;
      if (!Array.isArray(operations))
        throw patchError('jsonPatch needs `operations`, a list of RFC 6902 operations');
      return applyJsonPatch(target, operations) as object;
    }
    if (root.jsonMergePatch) return mergePatch(target, patch) as object;
    return new Unifier(patchKeys).map(target as JsonObject, patch as JsonObject, '', '', undefined);
  } catch (err) {
    if (err instanceof JsonPatchError) {
      const what = err.code === 'invalid-operation' ? '' : ` (${err.op} ${err.path})`;
      throw patchError(`operations[${err.index}]${what}: ${JSON_PATCH_REASONS[err.code]}`);
    }
    if (err instanceof RenderError && options.where) throw err.within(options.where);
    throw err;
  }
}

/** How a trait author is told why one of the patch's operations did not apply. */
const JSON_PATCH_REASONS: Record<JsonPatchErrorCode, string> = {
  'invalid-operation': 'an operation needs `op` and `path`',
  'invalid-path': 'a path must be empty or start with "/"',
  'missing-from': '`from` is missing',
  'path-not-found': 'path not found',
  'invalid-index': 'not a valid list index',
  'missing-value': '`value` is missing',
  'move-into-child': 'cannot move a value into one of its own children',
  'test-failed': 'the value differs',
  'unknown-op': 'unknown operation (expected add, remove, replace, move, copy or test)',
};

const NO_DIRECTIVES: PatchDirectives = {
  replace: false,
  retainKeys: false,
  jsonMergePatch: false,
  jsonPatch: false,
  each: false,
};

/** A value the workload does not have. */
const ABSENT = Symbol('absent');
type Maybe = Json | typeof ABSENT;

class Unifier {
  constructor(private readonly keys: PatchKeys) {}

  /**
   * `keyPath` addresses markers (`spec.template.spec.containers[].env`), `dataPath`
   * the value for messages (`spec.template.spec.containers[0].env`); `key` is the
   * patch key inherited from the fields above.
   */
  map(
    base: JsonObject | typeof ABSENT,
    patch: JsonObject,
    keyPath: string,
    dataPath: string,
    key?: string,
  ): JsonObject {
    const out: JsonObject = {};
    if (base !== ABSENT) for (const [k, v] of Object.entries(base)) out[k] = deepCopy(v);
    for (const [k, value] of Object.entries(patch)) {
      const fieldKeyPath = keyPath ? `${keyPath}.${k}` : k;
      const fieldPath = dataPath ? `${dataPath}.${k}` : k;
      const directives = directivesAt(this.keys, fieldKeyPath);
      const fieldKey = directives.key ?? key;
      let current: Maybe = base !== ABSENT && Object.hasOwn(base, k) ? base[k] : ABSENT;
      // retainKeys: the workload's value is replaced by the patch's (lists handle it per item).
      if (directives.retainKeys && !Array.isArray(value)) current = ABSENT;
      out[k] = Array.isArray(value)
        ? this.list(current, value, directives, fieldKeyPath, fieldPath, fieldKey)
        : this.value(current, value, fieldKeyPath, fieldPath, fieldKey);
    }
    return out;
  }

  value(base: Maybe, patch: Json, keyPath: string, dataPath: string, key?: string): Json {
    if (isJsonObject(patch)) {
      if (base !== ABSENT && !isJsonObject(base)) throw conflict(dataPath, base, patch);
      return this.map(base as JsonObject | typeof ABSENT, patch, keyPath, dataPath, key);
    }
    // A list inside a list is not a field: no markers apply to it, it unifies by index.
    if (Array.isArray(patch)) return this.list(base, patch, NO_DIRECTIVES, keyPath, dataPath, undefined);
    if (base !== ABSENT && !sameScalar(base, patch)) throw conflict(dataPath, base, patch);
    return deepCopy(patch);
  }

  list(
    base: Maybe,
    patch: Json[],
    directives: PatchDirectives,
    keyPath: string,
    dataPath: string,
    key: string | undefined,
  ): Json[] {
    const itemKeyPath = `${keyPath}[]`;
    const item = (b: Maybe, p: Json, i: number) => this.value(b, p, itemKeyPath, `${dataPath}[${i}]`, key);
    if (base !== ABSENT && !Array.isArray(base)) throw conflict(dataPath, base, patch);
    if (directives.each) {
      // `[...X]`: X constrains every item there is; with no list in the workload there are none.
      if (base === ABSENT) return [];
      return patch.length === 0 ? deepCopy(base) : base.map((b, i) => item(b, patch[0], i));
    }
    if (base === ABSENT || directives.replace) return patch.map((p, i) => item(ABSENT, p, i));
    const aligned = key ? alignByKey(base, patch, key, directives.retainKeys) : undefined;
    const baseItems = aligned?.base ?? base;
    const patchItems = aligned?.patch ?? patch;
    const out: Json[] = [];
    for (let i = 0; i < Math.max(baseItems.length, patchItems.length); i++) {
      const b: Maybe = i < baseItems.length ? baseItems[i] : ABSENT;
      // The patch's list is taken as open: items past its end are the workload's.
      out.push(i < patchItems.length ? item(b, patchItems[i], i) : deepCopy(b));
    }
    return out;
  }
}

/**
 * KubeVela's listMergeProcess: for each key (`+patchKey=a,b` lists several), the
 * patch items are indexed by their key value; then every workload item that has
 * the key gets its matching patch item, or `{}`; unmatched patch items follow, in
 * the patch's order. The result unifies with the workload's items by index.
 * Undefined (fall back to plain unification) when no patch item has a key, or a
 * key value is not a scalar.
 */
function alignByKey(
  base: Json[],
  patch: Json[],
  key: string,
  retainKeys: boolean,
): { base: Json[]; patch: Json[] } | undefined {
  const byId = new Map<string, number>();
  const aligned: Json[] = [];
  const baseOut = [...base];
  for (const field of key.split(',')) {
    const segments = field.split('.');
    let found = false;
    for (let i = 0; i < patch.length; i++) {
      const id = keyValue(patch[i], segments);
      if (id === ABSENT) continue;
      found = true;
      if (id === undefined) return undefined;
      byId.set(`${field}\u0000${id}`, i);
    }
    if (!found) {
      if (patch.length === 0) continue;
      return undefined;
    }
    for (let i = 0; i < base.length; i++) {
      const id = keyValue(base[i], segments);
      if (id === ABSENT) continue;
      if (id === undefined) return undefined;
      const match = byId.get(`${field}\u0000${id}`);
      if (match === undefined) {
        aligned.push({});
        continue;
      }
      if (retainKeys) baseOut[i] = {};
      aligned.push(patch[match]);
      byId.delete(`${field}\u0000${id}`);
    }
  }
  const unmatched = new Set(byId.values());
  patch.forEach((p, i) => {
    if (unmatched.has(i)) aligned.push(p);
  });
  return { base: baseOut, patch: aligned };
}

/** The key's value as a comparable literal; ABSENT if the item lacks it, undefined if not a scalar. */
function keyValue(item: Json, segments: string[]): string | undefined | typeof ABSENT {
  let at: Json = item;
  for (const seg of segments) {
    if (isJsonObject(at) && Object.hasOwn(at, seg)) at = at[seg];
    else if (Array.isArray(at) && /^\d+$/.test(seg) && Number(seg) < at.length) at = at[Number(seg)];
    else return ABSENT;
  }
  return at === null || ['string', 'number', 'boolean'].includes(typeof at) ? JSON.stringify(at) : undefined;
}

function conflict(path: string, workload: Json, patch: Json): RenderError {
  return new RenderError(
    `conflicting values ${describe(workload)} (workload) and ${describe(patch)} (patch): ` +
      'a trait patch is unified with the workload as in CUE, so it can add fields and list items ' +
      'but not change a value, unless the definition marks the field // +patchStrategy=retainKeys ' +
      '(or replace, for a list)',
    { path: `patch.${path}` },
  );
}

function describe(v: Json): string {
  if (Array.isArray(v)) return 'a list';
  if (isJsonObject(v)) return 'a map';
  return JSON.stringify(v);
}

function sameScalar(a: Json, b: Json): boolean {
  return a === b || (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b));
}
