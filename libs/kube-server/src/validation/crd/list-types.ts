/**
 * `x-kubernetes-list-type: set|map` uniqueness, as apiextensions-apiserver's
 * listtype validation reports it: `spec.tags[2]: Duplicate value: "a"`, and for
 * maps the duplicated key fields: `Duplicate value: map[string]interface {}{"name":"http"}`.
 */
import { isJsonObject } from '#kube-core';
import { type FieldCause, duplicate, duplicateRendered, goRepr } from '../field-errors.js';
import { type JsonSchemaProps, valueSchema } from './schema-types.js';

function listCauses(list: unknown[], schema: JsonSchemaProps, path: string): FieldCause[] {
  const type = schema['x-kubernetes-list-type'];
  if (type !== 'set' && type !== 'map') return [];
  const causes: FieldCause[] = [];
  const seen = new Set<string>();
  list.forEach((item, i) => {
    let key: string;
    let shown: Record<string, unknown> | undefined;
    if (type === 'set') {
      key = JSON.stringify(item);
    } else if (type === 'map' && isJsonObject(item)) {
      shown = Object.fromEntries((schema['x-kubernetes-list-map-keys'] ?? []).map((k) => [k, item[k]]));
      key = JSON.stringify(shown);
    } else {
      return;
    }
    if (seen.has(key)) {
      causes.push(
        shown ? duplicateRendered(`${path}[${i}]`, goRepr(shown)) : duplicate(`${path}[${i}]`, item),
      );
    }
    seen.add(key);
  });
  return causes;
}

function walk(value: unknown, schema: JsonSchemaProps | undefined, path: string, out: FieldCause[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    out.push(...listCauses(value, schema, path));
    value.forEach((item, i) => walk(item, schema.items, `${path}[${i}]`, out));
    return;
  }
  if (!isJsonObject(value)) return;
  const mapValues = valueSchema(schema);
  for (const [key, child] of Object.entries(value)) {
    walk(child, schema.properties?.[key] ?? mapValues, path ? `${path}.${key}` : key, out);
  }
}

export function validateListTypes(obj: object, schema: JsonSchemaProps): FieldCause[] {
  const out: FieldCause[] = [];
  walk(obj, schema, '', out);
  return out;
}
