/**
 * Structural pruning, as apiextensions-apiserver does it (structural/pruning):
 * fields the schema does not specify are dropped unless the node preserves
 * unknown fields; `apiVersion`, `kind` and `metadata` survive at the root and
 * in embedded resources, and metadata keeps only ObjectMeta's fields.
 * Returns a pruned copy and the paths that were dropped (for fieldValidation).
 */
import { isJsonObject } from '#kube-core';
import { modelFieldNames } from '../builtin-unknown-fields.js';
import { type Json, type JsonSchemaProps, preservesUnknown, valueSchema } from './schema-types.js';

const RESOURCE_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);
let objectMetaFields: ReadonlySet<string> | undefined;

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

function pruneMetadata(metadata: unknown, path: string, dropped: string[]): unknown {
  if (!isJsonObject(metadata)) return metadata;
  objectMetaFields ??= modelFieldNames('V1ObjectMeta');
  const out: Json = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (objectMetaFields.has(key)) out[key] = value;
    else dropped.push(join(path, key));
  }
  return out;
}

function pruneValue(
  value: unknown,
  schema: JsonSchemaProps | undefined,
  path: string,
  dropped: string[],
): unknown {
  if (!schema) return value;
  if (Array.isArray(value)) {
    return schema.items
      ? value.map((item, i) => pruneValue(item, schema.items, `${path}[${i}]`, dropped))
      : value;
  }
  if (!isJsonObject(value)) return value;
  return pruneObject(value, schema, path, dropped, schema['x-kubernetes-embedded-resource'] === true);
}

function pruneObject(
  obj: Json,
  schema: JsonSchemaProps,
  path: string,
  dropped: string[],
  isResource: boolean,
): Json {
  const mapValues = valueSchema(schema);
  const keepUnknown = preservesUnknown(schema);
  const out: Json = {};
  for (const [key, value] of Object.entries(obj)) {
    const childPath = join(path, key);
    const property = schema.properties?.[key];
    if (isResource && key === 'metadata') {
      out[key] = pruneMetadata(value, childPath, dropped);
    } else if (property) {
      out[key] = pruneValue(value, property, childPath, dropped);
    } else if (mapValues) {
      out[key] = pruneValue(value, mapValues, childPath, dropped);
    } else if (keepUnknown || (isResource && RESOURCE_FIELDS.has(key))) {
      out[key] = value;
    } else {
      dropped.push(childPath);
    }
  }
  return out;
}

/**
 * Prunes a whole custom resource against its version's openAPIV3Schema. `copy: false` only
 * reads `obj`: the pruned object then shares the values it keeps with `obj`.
 */
export function pruneResource(
  obj: object,
  schema: JsonSchemaProps,
  copy = true,
): { pruned: Json; dropped: string[] } {
  const dropped: string[] = [];
  // Work on a clone so kept subtrees are never shared with the caller's object.
  const pruned = pruneObject((copy ? structuredClone(obj) : obj) as Json, schema, '', dropped, true);
  return { pruned, dropped };
}
