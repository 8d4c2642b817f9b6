/**
 * Applying a configuration onto a live object (structured-merge-diff's Merge) and removing
 * field paths from an object (RemoveItems). Maps merge key by key, associative lists merge
 * by key (live order first, new items appended), sets union, atomic values are replaced.
 */
import { fieldElement, type PathElement } from '../fieldpath/element.js';
import type { FieldSet } from '../fieldpath/set.js';
import { fieldPath, itemPath, type TypeSchema } from '../schema/lookup.js';
import { deepCopy, isJsonObject, type JsonObject } from '#kube-core';
import { granularList, indexList } from './typed.js';

const bothEmpty = (a: unknown[], b: unknown[]) => !a.length && !b.length;

function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) if (child !== null) out[key] = withoutNulls(child);
  return out;
}

/** The live object with the applied configuration merged in; an applied null removes the field. */
export function mergeApplied(live: JsonObject, applied: JsonObject, schema: TypeSchema): JsonObject {
  const merge = (l: unknown, r: unknown, schemaPath: string, path: PathElement[]): unknown => {
    if (l === undefined || l === null) return withoutNulls(deepCopy(r));
    if (isJsonObject(l) && isJsonObject(r) && !(path.length && schema.isAtomicMap(schemaPath))) {
      const out: JsonObject = {};
      for (const [key, value] of Object.entries(l)) {
        if (!(key in r)) out[key] = deepCopy(value);
        else if (r[key] !== null)
          out[key] = merge(value, r[key], fieldPath(schemaPath, key), [...path, fieldElement(key)]);
      }
      for (const [key, value] of Object.entries(r))
        if (!(key in l) && value !== null) out[key] = withoutNulls(deepCopy(value));
      return out;
    }
    const rule =
      Array.isArray(l) && Array.isArray(r) && !bothEmpty(l, r) ? granularList(schema, schemaPath) : undefined;
    if (!rule) return withoutNulls(deepCopy(r));
    const left = indexList(l as unknown[], rule, path, false);
    const right = indexList(r as unknown[], rule, path, false);
    const out = left.order.map((pe) => {
      const item = left.items.get(pe);
      if (!right.items.has(pe)) return deepCopy(item);
      return rule.listType === 'map'
        ? merge(item, right.items.get(pe), itemPath(schemaPath), [...path, pe])
        : item;
    });
    for (const pe of right.order)
      if (!left.items.has(pe)) out.push(withoutNulls(deepCopy(right.items.get(pe))));
    return out;
  };
  return merge(live, applied, '', []) as JsonObject;
}

/** A copy of `value` without the members of `toRemove` (each with everything below it). */
export function removeItems(value: JsonObject, toRemove: FieldSet, schema: TypeSchema): JsonObject {
  const remove = (node: unknown, set: FieldSet, schemaPath: string, path: PathElement[]): unknown => {
    if (isJsonObject(node)) {
      const out: JsonObject = {};
      for (const [key, child] of Object.entries(node)) {
        const pe = fieldElement(key);
        if (set.has([pe])) continue;
        const below = set.child(pe);
        out[key] = below ? remove(child, below, fieldPath(schemaPath, key), [...path, pe]) : deepCopy(child);
      }
      return out;
    }
    const rule = Array.isArray(node) ? granularList(schema, schemaPath) : undefined;
    if (!rule) return deepCopy(node);
    const { order, items } = indexList(node as unknown[], rule, path, false);
    const out: unknown[] = [];
    for (const pe of order) {
      if (set.has([pe])) continue;
      const below = set.child(pe);
      const item = items.get(pe);
      out.push(
        below && rule.listType === 'map'
          ? remove(item, below, itemPath(schemaPath), [...path, pe])
          : deepCopy(item),
      );
    }
    return out;
  };
  return remove(value, toRemove, '', []) as JsonObject;
}
