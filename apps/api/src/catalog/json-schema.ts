import { isJsonObject } from '#kube-core';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);
const SUBSCHEMAS = new Set(['items', 'additionalProperties', 'not']);
const SUBSCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf']);

/**
 * A parameter schema in OpenAPI v3's dialect (what the ConfigMap holds) as
 * JSON Schema draft-07, which form libraries such as react-jsonschema-form
 * read: `nullable` becomes a `null` type, OpenAPI's `example` becomes `examples`.
 */
export function openApiToJsonSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return { $schema: DRAFT_07, ...convert(schema) };
}

function convert(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable') continue;
    if (key === 'example') out.examples = [value];
    else if (SUBSCHEMA_MAPS.has(key) && isJsonObject(value))
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, isJsonObject(v) ? convert(v) : v]),
      );
    else if (SUBSCHEMAS.has(key) && isJsonObject(value)) out[key] = convert(value);
    else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value))
      out[key] = value.map((v) => (isJsonObject(v) ? convert(v) : v));
    else out[key] = value;
  }
  if (schema.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
  }
  return out;
}
