/**
 * Strategic merge patch, after k8s.io/apimachinery/pkg/util/strategicpatch
 * (StrategicMergeMapPatch with MergeParallelList and IgnoreUnmatchedNulls, as the API
 * server calls it). Lists merge by the merge keys of schema/rules.ts; the directives
 * `$patch` (replace/delete/merge), `$retainKeys`, `$setElementOrder/<list>` and
 * `$deleteFromPrimitiveList/<list>` are honoured; null deletes a field.
 */
import { fieldPath, itemPath, type TypeSchema } from '../schema/lookup.js';
import { badRequest, internalError, strategicUnsupported } from '../status.js';
import { deepCopy, deepEqual, isJsonObject, type JsonObject } from '#kube-core';
import * as errors from './errors.js';
import { indexIn, normalizeOrder } from './order.js';

const PATCH_DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const SET_ORDER = '$setElementOrder/';
const DELETE_FROM_PRIMITIVES = '$deleteFromPrimitiveList/';

type Shape = 'map' | 'list' | 'scalar';
const shapeOf = (value: unknown): Shape =>
  Array.isArray(value) ? 'list' : isJsonObject(value) ? 'map' : 'scalar';

export function strategicMergePatch(live: object, patch: unknown, schema: TypeSchema): object {
  if (!schema.builtIn) throw strategicUnsupported();
  if (patch === null) return deepCopy(live);
  if (!isJsonObject(patch)) {
    throw badRequest(
      `json: cannot unmarshal ${Array.isArray(patch) ? 'array' : typeof patch} into Go value of type map[string]interface {}`,
    );
  }
  return mergeMap(deepCopy(live) as JsonObject, deepCopy(patch), schema, '');
}

/** Merges `patch` into `original`; both are private copies and are consumed. */
function mergeMap(original: JsonObject, patch: JsonObject, schema: TypeSchema, path: string): JsonObject {
  if (PATCH_DIRECTIVE in patch) return mapDirective(patch, schema, path);
  applyRetainKeys(original, patch);
  applyPrimitiveDeletions(original, patch, schema, path);
  applySetElementOrders(original, patch, schema, path);
  for (const [key, patchValue] of Object.entries(patch)) {
    if (key.startsWith('$')) continue;
    const childPath = fieldPath(path, key);
    const current = original[key];
    if (patchValue === null) delete original[key];
    else if (current === undefined || current === null || shapeOf(current) !== shapeOf(patchValue)) {
      original[key] = fresh(patchValue, schema, childPath);
    } else if (isJsonObject(patchValue))
      original[key] = mergeMap(current as JsonObject, patchValue, schema, childPath);
    else if (Array.isArray(patchValue))
      original[key] = mergeList(current as unknown[], patchValue, schema, childPath);
    else original[key] = patchValue;
  }
  return original;
}

/** A patch value where the original has nothing: directives resolved, nulls dropped. */
function fresh(value: unknown, schema: TypeSchema, path: string): unknown {
  if (isJsonObject(value)) return mergeMap({}, value, schema, path);
  if (Array.isArray(value)) return mergeList([], value, schema, path);
  return value;
}

function mapDirective(patch: JsonObject, schema: TypeSchema, path: string): JsonObject {
  const directive = patch[PATCH_DIRECTIVE];
  if (directive === 'delete') return {};
  if (directive !== 'replace') throw errors.badPatchType(directive, patch);
  const rest = { ...patch };
  delete rest[PATCH_DIRECTIVE];
  return mergeMap({}, rest, schema, path);
}

function applyRetainKeys(original: JsonObject, patch: JsonObject): void {
  if (!(RETAIN_KEYS in patch)) return;
  const keep = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(keep) || keep.some((key) => typeof key !== 'string'))
    throw errors.badPatchFormatForRetainKeys();
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith('$') && value !== null && !keep.includes(key))
      throw errors.patchContentNotMatchRetainKeys();
  }
  for (const key of Object.keys(original)) if (!keep.includes(key)) delete original[key];
}

function applyPrimitiveDeletions(
  original: JsonObject,
  patch: JsonObject,
  schema: TypeSchema,
  path: string,
): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(DELETE_FROM_PRIMITIVES)) continue;
    const field = key.slice(DELETE_FROM_PRIMITIVES.length);
    const toDelete = patch[key];
    delete patch[key];
    if (!Array.isArray(toDelete)) throw errors.badPatchFormatForPrimitiveList();
    const current = original[field];
    if (!Array.isArray(current)) continue;
    // kube's mergeSliceHandler replaces a non-merge list by the deletion list itself.
    const merge = schema.listRule(fieldPath(path, field)).strategy === 'merge';
    original[field] = merge
      ? current.filter((item) => !toDelete.some((gone) => deepEqual(gone, item)))
      : deepCopy(toDelete);
  }
}

function applySetElementOrders(
  original: JsonObject,
  patch: JsonObject,
  schema: TypeSchema,
  path: string,
): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ORDER)) continue;
    const field = key.slice(SET_ORDER.length);
    const order = patch[key];
    const patchList = patch[field] ?? [];
    delete patch[key];
    delete patch[field];
    if (!Array.isArray(order) || !Array.isArray(patchList)) throw errors.badPatchFormatForSetElementOrder();
    const listPath = fieldPath(path, field);
    const mergeKey = schema.listRule(listPath).mergeKey;
    validateOrder(patchList, order, mergeKey, field);
    const current = Array.isArray(original[field]) ? (original[field] as unknown[]) : [];
    if (!current.length && !patchList.length) continue;
    const merged = mergeList([...current], patchList, schema, listPath);
    original[field] = normalizeOrder(merged, order, current, mergeKey);
  }
}

/** Every item of the patch list must appear in `$setElementOrder`, in the same relative order. */
function validateOrder(
  patchList: unknown[],
  order: unknown[],
  mergeKey: string | undefined,
  field: string,
): void {
  const items = patchList.filter((item) => !(isJsonObject(item) && PATCH_DIRECTIVE in item));
  let at = -1;
  for (const item of items) {
    const found = indexIn(order, item, mergeKey);
    if (found <= at) throw errors.setElementOrderMismatch(patchList, field, order);
    at = found;
  }
}

function mergeList(original: unknown[], patch: unknown[], schema: TypeSchema, path: string): unknown[] {
  const rule = schema.listRule(path);
  if (rule.strategy !== 'merge')
    return patch.filter((item) => !isDirectiveOnly(item)).map((item) => fresh(item, schema, itemPath(path)));
  if (!original.length && !patch.length) return original;
  const shape = elementShape([...original, ...patch], path);
  if (shape !== 'map') {
    const merged = [...original, ...patch].filter(
      (item, i, all) => all.findIndex((other) => deepEqual(other, item)) === i,
    );
    return normalizeOrder(merged, patch, original, undefined);
  }
  const mergeKey = rule.mergeKey;
  if (!mergeKey) throw internalError(`cannot merge lists without merge key for ${path}`);
  const { remaining, items, replace } = specialElements(original, patch as JsonObject[], mergeKey);
  const merged = replace
    ? items.map((item) => fresh(item, schema, itemPath(path)))
    : mergeItems(remaining, items, mergeKey, schema, itemPath(path));
  return normalizeOrder(merged, items, original, mergeKey);
}

const isDirectiveOnly = (item: unknown) =>
  isJsonObject(item) && Object.keys(item).every((key) => key.startsWith('$'));

function elementShape(items: unknown[], path: string): Shape {
  if (items.some(Array.isArray)) throw errors.noListOfLists();
  const shapes = new Set(items.map(shapeOf));
  if (shapes.size > 1) throw errors.mismatchedListTypes(path);
  return shapes.values().next().value as Shape;
}

/** Handles the `$patch` items of a keyed list: delete by key, replace the whole list. */
function specialElements(original: unknown[], patch: JsonObject[], mergeKey: string) {
  let remaining = original;
  let replace = false;
  const items: JsonObject[] = [];
  for (const item of patch) {
    if (!(PATCH_DIRECTIVE in item)) {
      items.push(item);
      continue;
    }
    const directive = item[PATCH_DIRECTIVE];
    if (directive === 'delete') {
      if (!(mergeKey in item)) throw errors.noMergeKey(item, mergeKey);
      remaining = remaining.filter(
        (entry) => !(isJsonObject(entry) && deepEqual(entry[mergeKey], item[mergeKey])),
      );
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') throw errors.mergingListsNotSupported();
    else throw errors.badPatchType(directive, item);
  }
  return { remaining, items, replace };
}

function mergeItems(
  original: unknown[],
  items: JsonObject[],
  mergeKey: string,
  schema: TypeSchema,
  path: string,
): unknown[] {
  const result = [...original];
  for (const item of items) {
    if (!(mergeKey in item)) throw errors.noMergeKey(item, mergeKey);
    const at = result.findIndex((entry) => isJsonObject(entry) && deepEqual(entry[mergeKey], item[mergeKey]));
    if (at >= 0) result[at] = mergeMap(result[at] as JsonObject, item, schema, path);
    else result.push(fresh(item, schema, path));
  }
  return result;
}
