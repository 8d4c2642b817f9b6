/**
 * Path elements of sigs.k8s.io/structured-merge-diff, kept in their FieldsV1 serialized
 * form: `f:<field>`, `k:<json of the key fields, sorted>`, `v:<json value>`, `i:<index>`.
 */
import { isJsonObject, type JsonObject } from '#kube-core';

export type PathElement = string;
export type Path = readonly PathElement[];

export const fieldElement = (name: string): PathElement => `f:${name}`;
export const valueElement = (value: unknown): PathElement => `v:${JSON.stringify(value)}`;
export const indexElement = (index: number): PathElement => `i:${index}`;

export function keyElement(fields: JsonObject): PathElement {
  const sorted = Object.keys(fields)
    .sort()
    .map((name) => `${JSON.stringify(name)}:${JSON.stringify(fields[name])}`);
  return `k:{${sorted.join(',')}}`;
}

export type ElementKind = 'field' | 'key' | 'value' | 'index';
const KIND_BY_PREFIX: Record<string, ElementKind> = { f: 'field', k: 'key', v: 'value', i: 'index' };
const RANK: Record<ElementKind, number> = { field: 0, key: 1, value: 2, index: 3 };

export function elementKind(pe: PathElement): ElementKind | undefined {
  return pe[1] === ':' ? KIND_BY_PREFIX[pe[0]] : undefined;
}

export const elementBody = (pe: PathElement): string => pe.slice(2);

/** The parsed key fields of a `k:` element. */
export function keyFields(pe: PathElement): JsonObject {
  const parsed: unknown = JSON.parse(elementBody(pe));
  if (!isJsonObject(parsed)) throw new Error(`path element ${pe} does not hold an object of key fields`);
  return parsed;
}

export function elementValue(pe: PathElement): unknown {
  return JSON.parse(elementBody(pe));
}

/** Go's value.ToString: JSON for strings and numbers. */
const valueString = (value: unknown): string => JSON.stringify(value);

/** The human form used in conflict messages: `.spec`, `[name="nginx"]`, `[="a"]`, `[0]`. */
export function elementString(pe: PathElement): string {
  switch (elementKind(pe)) {
    case 'field':
      return `.${elementBody(pe)}`;
    case 'key': {
      const fields = keyFields(pe);
      return `[${Object.keys(fields)
        .map((name) => `${name}=${valueString(fields[name])}`)
        .join(',')}]`;
    }
    case 'value':
      return `[=${valueString(elementValue(pe))}]`;
    case 'index':
      return `[${elementBody(pe)}]`;
    default:
      return '{{invalid path element}}';
  }
}

export const pathString = (path: Path): string => path.map(elementString).join('');

function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown) =>
    v === null ? 0 : typeof v === 'boolean' ? 1 : typeof v === 'number' ? 2 : typeof v === 'string' ? 3 : 4;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const left = typeof a === 'string' ? a : JSON.stringify(a);
  const right = typeof b === 'string' ? b : JSON.stringify(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** structured-merge-diff's PathElement order: fields, then keys, values, indexes. */
export function compareElements(a: PathElement, b: PathElement): number {
  const kindA = elementKind(a) ?? 'field';
  const kindB = elementKind(b) ?? 'field';
  if (kindA !== kindB) return RANK[kindA] - RANK[kindB];
  if (kindA === 'index') return Number(elementBody(a)) - Number(elementBody(b));
  if (kindA === 'value') return compareValues(elementValue(a), elementValue(b));
  if (kindA === 'key') {
    const left = Object.entries(keyFields(a));
    const right = Object.entries(keyFields(b));
    for (let i = 0; i < Math.max(left.length, right.length); i++) {
      if (i >= left.length) return -1;
      if (i >= right.length) return 1;
      if (left[i][0] !== right[i][0]) return left[i][0] < right[i][0] ? -1 : 1;
      const byValue = compareValues(left[i][1], right[i][1]);
      if (byValue) return byValue;
    }
    return 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
