/**
 * Walks objects with a kind's field rules the way structured-merge-diff walks typed values:
 * the applied field set (ToFieldSet) and the comparison of two objects (Compare).
 */
import {
  fieldElement,
  indexElement,
  keyElement,
  pathString,
  valueElement,
  type Path,
  type PathElement,
} from '../fieldpath/element.js';
import { FieldSet } from '../fieldpath/set.js';
import type { ListRule } from '../schema/rules.js';
import { fieldPath, itemPath, type TypeSchema } from '../schema/lookup.js';
import { deepEqual, isJsonObject, type JsonObject } from '#kube-core';

/** A value that does not fit its schema (missing key fields, duplicate keys). */
export class TypedValueError extends Error {}

const isEmptyContainer = (v: unknown) =>
  v === undefined || v === null || (Array.isArray(v) ? !v.length : isJsonObject(v) && !Object.keys(v).length);

/** The path element of one list item; `strict` rejects items that cannot be keyed, otherwise they fall back to their index. */
export function itemElement(
  rule: ListRule,
  item: unknown,
  index: number,
  path: Path,
  strict: boolean,
): PathElement {
  const fail = (message: string): PathElement => {
    if (strict) throw new TypedValueError(`${pathString(path)}: element ${index}: ${message}`);
    return indexElement(index);
  };
  if (rule.listType === 'set') {
    return isJsonObject(item) || Array.isArray(item)
      ? fail('sets may only contain primitive values')
      : valueElement(item);
  }
  if (rule.listType !== 'map') return indexElement(index);
  if (!isJsonObject(item)) return fail('associative list with keys may not have non-map elements');
  const key: JsonObject = {};
  for (const name of rule.mapKeys ?? []) {
    if (item[name] !== undefined && item[name] !== null) key[name] = item[name];
    else if (rule.keyDefaults && name in rule.keyDefaults) key[name] = rule.keyDefaults[name];
    else
      return fail(
        `associative list with keys has an element that omits key field ${JSON.stringify(name)} (and doesn't have default value)`,
      );
  }
  return keyElement(key);
}

export interface IndexedList {
  order: PathElement[];
  items: Map<PathElement, unknown>;
}

/** The items of a non-atomic list by path element; the first of duplicate items wins unless `strict`. */
export function indexList(list: unknown[], rule: ListRule, path: Path, strict: boolean): IndexedList {
  const items = new Map<PathElement, unknown>();
  const order: PathElement[] = [];
  list.forEach((item, i) => {
    const pe = itemElement(rule, item, i, path, strict);
    if (items.has(pe)) {
      if (strict)
        throw new TypedValueError(`${pathString(path)}: duplicate entries for key ${pathString([pe])}`);
      return;
    }
    items.set(pe, item);
    order.push(pe);
  });
  return { order, items };
}

/** A non-atomic list rule at `schemaPath`, or undefined when the list is atomic. */
export function granularList(schema: TypeSchema, schemaPath: string): ListRule | undefined {
  const rule = schema.listRule(schemaPath);
  return rule.listType === 'atomic' ? undefined : rule;
}

/** ToFieldSet of an applied configuration: the leaves, list items and empty/atomic values it sets. */
export function appliedFieldSet(applied: JsonObject, schema: TypeSchema): FieldSet {
  const set = new FieldSet();
  const walk = (value: unknown, schemaPath: string, path: PathElement[]): void => {
    if (isJsonObject(value)) {
      if (path.length && schema.isAtomicMap(schemaPath)) return void set.insert(path);
      for (const [key, child] of Object.entries(value)) {
        const childPath = [...path, fieldElement(key)];
        if (isEmptyContainer(child) && !Array.isArray(child)) set.insert(childPath);
        else walk(child, fieldPath(schemaPath, key), childPath);
      }
    } else if (Array.isArray(value)) {
      const rule = granularList(schema, schemaPath);
      if (!rule) return void set.insert(path);
      const { order, items } = indexList(value, rule, path, true);
      for (const pe of order) {
        set.insert([...path, pe]);
        if (rule.listType === 'map') walk(items.get(pe), itemPath(schemaPath), [...path, pe]);
      }
    } else set.insert(path);
  };
  walk(applied, '', []);
  return set;
}

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * Compare: leaves added/removed/modified, plus container nodes present on one side only. It
 * costs what the two objects do not share: a subtree that is the same value on both sides is
 * skipped.
 */
export function compareObjects(lhs: JsonObject, rhs: JsonObject, schema: TypeSchema): Comparison {
  const result: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const leaf = (l: unknown, r: unknown, path: PathElement[]) => {
    if (r === undefined) result.removed.insert(path);
    else if (l === undefined) result.added.insert(path);
    else if (!deepEqual(l, r)) result.modified.insert(path);
  };
  const walk = (l: unknown, r: unknown, schemaPath: string, path: PathElement[]): void => {
    // The same value on both sides (a subtree the write shared with the stored object) has no changes.
    if (l === r && l !== undefined) return;
    const bothEmpty = isEmptyContainer(l) && isEmptyContainer(r);
    const shape = isJsonObject(l ?? r) ? 'map' : Array.isArray(l ?? r) ? 'list' : 'scalar';
    const shapeOf = (v: unknown) => (isJsonObject(v) ? 'map' : Array.isArray(v) ? 'list' : 'scalar');
    const sameShape =
      l === undefined || r === undefined || l === null || r === null || shapeOf(l) === shapeOf(r);
    if (!sameShape) {
      result.modified.insert(path);
      walk(l, undefined, schemaPath, path);
      walk(undefined, r, schemaPath, path);
      return;
    }
    if (
      shape === 'scalar' ||
      bothEmpty ||
      (shape === 'map' && path.length && schema.isAtomicMap(schemaPath))
    ) {
      return leaf(l, r, path);
    }
    if (shape === 'map') {
      const left = (l ?? {}) as JsonObject;
      const right = (r ?? {}) as JsonObject;
      for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
        walk(left[key], right[key], fieldPath(schemaPath, key), [...path, fieldElement(key)]);
      }
    } else {
      const rule = granularList(schema, schemaPath);
      if (!rule) return leaf(l, r, path);
      const left = indexList((l ?? []) as unknown[], rule, path, false);
      const right = indexList((r ?? []) as unknown[], rule, path, false);
      for (const pe of new Set([...left.order, ...right.order])) {
        const [li, ri] = [left.items.get(pe), right.items.get(pe)];
        if (rule.listType === 'map') walk(li, ri, itemPath(schemaPath), [...path, pe]);
        else leaf(li, ri, [...path, pe]);
      }
    }
    if (path.length && r === undefined) result.removed.insert(path);
    else if (path.length && l === undefined) result.added.insert(path);
  };
  walk(lhs, rhs, '', []);
  return result;
}
