/**
 * Structural defaulting, as apiextensions-apiserver does it (structural/defaulting):
 * top-down, a property's `default` fills it when absent (or null while not
 * nullable), then the walk continues into the value, so defaults nest. Nulls
 * of non-nullable fields without a default are dropped first, as kube's
 * PruneNonNullableNullsWithoutDefaults does.
 */
import { deepCopy, isJsonObject } from '#kube-core';
import { type Json, type JsonSchemaProps, valueSchema } from './schema-types.js';

function fill(value: unknown, schema: JsonSchemaProps | undefined): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    for (const item of value) fill(item, schema.items);
    return;
  }
  if (!isJsonObject(value)) return;
  const mapValues = valueSchema(schema);
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const current = value[key];
    const nullNotAllowed = current === null && !property.nullable;
    if (property.default !== undefined && (!(key in value) || nullNotAllowed)) {
      value[key] = deepCopy(property.default);
    } else if (nullNotAllowed) {
      delete value[key];
    }
  }
  for (const [key, child] of Object.entries(value)) {
    const property = schema.properties?.[key];
    if (property) fill(child, property);
    else if (mapValues) fill(child, mapValues);
  }
}

/** A defaulted copy of a custom resource. */
export function applySchemaDefaults(obj: object, schema: JsonSchemaProps): Json {
  const copy = structuredClone(obj) as Json;
  fill(copy, schema);
  return copy;
}
