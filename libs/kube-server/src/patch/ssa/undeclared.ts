/**
 * structured-merge-diff's "field not declared in schema", for an applied configuration whose
 * undeclared fields the caller found (in strict decoding's form, `spec.containers[0].foo`):
 * each becomes the typed path SMD reports (`.spec.containers[name="app"].foo`), list items
 * named by their keys where the list is associative.
 */
import { isJsonObject } from '#kube-core';
import { fieldElement, pathString, type PathElement } from '../fieldpath/element.js';
import { fieldPath, itemPath, type TypeSchema } from '../schema/lookup.js';
import { itemElement } from './typed.js';

/**
 * The typed path of one strict-decoding path through `obj`, or undefined when the path does not
 * lead through it. Map keys may hold dots or brackets: at an object, the longest key that
 * starts the rest of the path is taken (`[key]` for a map entry, as the built-in walker
 * writes them).
 */
export function typedPath(obj: unknown, path: string, schema: TypeSchema): PathElement[] | undefined {
  const out: PathElement[] = [];
  let cur = obj;
  let rest = path;
  let schemaPath = '';
  while (rest) {
    if (Array.isArray(cur)) {
      const index = /^\[(\d+)\]/.exec(rest);
      if (!index) return undefined;
      const i = Number(index[1]);
      out.push(itemElement(schema.listRule(schemaPath), cur[i], i, out, false));
      schemaPath = itemPath(schemaPath);
      cur = cur[i];
      rest = rest.slice(index[0].length);
    } else if (isJsonObject(cur)) {
      const key = longestKey(Object.keys(cur), rest);
      if (key === undefined) return undefined;
      out.push(fieldElement(key.name));
      schemaPath = fieldPath(schemaPath, key.name);
      cur = cur[key.name];
      rest = rest.slice(key.length);
    } else return undefined;
    if (rest.startsWith('.')) rest = rest.slice(1);
  }
  return out;
}

function longestKey(keys: string[], rest: string): { name: string; length: number } | undefined {
  let best: { name: string; length: number } | undefined;
  for (const name of keys) {
    const spelled = rest.startsWith('[') ? `[${name}]` : name;
    const ends = rest.length === spelled.length || '.['.includes(rest[spelled.length]);
    if (rest.startsWith(spelled) && ends && (!best || spelled.length > best.length))
      best = { name, length: spelled.length };
  }
  return best;
}

/**
 * SMD's validation errors for the undeclared fields: one per object, as its walk stops at the
 * first field it cannot place (which one is Go's map order; here the first in the document).
 */
export function undeclaredFieldErrors(applied: object, paths: string[], schema: TypeSchema): string[] {
  const seenParents = new Set<string>();
  const errors: string[] = [];
  for (const path of paths) {
    const typed = typedPath(applied, path, schema);
    if (!typed) throw new Error(`undeclared field ${path} is not in the applied object`);
    const parent = pathString(typed.slice(0, -1));
    if (seenParents.has(parent)) continue;
    seenParents.add(parent);
    errors.push(`${pathString(typed)}: field not declared in schema`);
  }
  return errors;
}

/** How SMD's ValidationErrors print: one error alone, several under "errors:". */
export function validationErrorsText(errors: string[]): string {
  return errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => `  ${e}`)].join('\n');
}
