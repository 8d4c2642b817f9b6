/**
 * Converts a CRD's openAPIV3Schema (OpenAPI v3.0 / draft-4 flavoured) into a
 * JSON schema ajv (draft-07) checks the same way kube-openapi does:
 * `nullable` adds null, `x-kubernetes-int-or-string` means integer or string,
 * boolean `exclusiveMinimum/Maximum` become numeric bounds, `default` and
 * vendor extensions are dropped, and formats kube does not know are ignored
 * (kube strips them too).
 */
import { isJsonObject } from '#kube-core';
import type { JsonSchemaProps } from './schema-types.js';

/** Formats kube-apiserver validates for custom resources that ajv-formats implements alike. */
export const CHECKED_FORMATS = new Set([
  'date',
  'date-time',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
  'byte',
]);

const COPIED = [
  'enum',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'required',
] as const;

type AjvSchema = Record<string, unknown>;

function typeOf(s: JsonSchemaProps): string[] | undefined {
  if (s['x-kubernetes-int-or-string'])
    return s.nullable ? ['integer', 'string', 'null'] : ['integer', 'string'];
  if (!s.type) return undefined;
  return s.nullable ? [s.type, 'null'] : [s.type];
}

function bounds(s: JsonSchemaProps, out: AjvSchema): void {
  if (s.minimum !== undefined) out[s.exclusiveMinimum ? 'exclusiveMinimum' : 'minimum'] = s.minimum;
  if (s.maximum !== undefined) out[s.exclusiveMaximum ? 'exclusiveMaximum' : 'maximum'] = s.maximum;
}

export function toAjvSchema(s: JsonSchemaProps): AjvSchema {
  const out: AjvSchema = {};
  const type = typeOf(s);
  if (type) out.type = type.length === 1 ? type[0] : type;
  for (const key of COPIED) if (s[key] !== undefined) out[key] = s[key];
  // A null that the schema allows also satisfies its enum, as in kube-openapi.
  if (s.nullable && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  bounds(s, out);
  if (s.format && CHECKED_FORMATS.has(s.format)) out.format = s.format;
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toAjvSchema(v)]));
  }
  if (isJsonObject(s.additionalProperties)) out.additionalProperties = toAjvSchema(s.additionalProperties);
  if (s.items) out.items = toAjvSchema(s.items);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (s[key]) out[key] = s[key]!.map(toAjvSchema);
  }
  if (s.not) out.not = toAjvSchema(s.not);
  return out;
}
