import { isJsonObject } from '#kube-core';
import type { Definition } from '#api';
import type { TemplateCompiler } from '../engines/compiler.js';
import type { ParameterSchema } from '../engines/engine.js';

/** Keywords of JSON Schema that OpenAPI v3's schema object does not have; dropped. */
const UNSUPPORTED = new Set([
  '$schema',
  '$id',
  '$defs',
  'definitions',
  'propertyNames',
  'dependentRequired',
  'if',
  'then',
  'else',
  'examples',
]);

/**
 * A definition's parameter schema as KubeVela publishes it (ConfigMap
 * `<component|trait>-schema-<name>`, key `openapi-v3-json-schema`): the
 * engine's JSON Schema (CUE's OpenAPI export, or the Handlebars `parameters`)
 * in OpenAPI v3's dialect. The one function the controller, `oam def show`
 * and the REST API's catalog use.
 */
export async function parameterOpenApiSchema(
  definition: Definition,
  compiler: TemplateCompiler,
): Promise<Record<string, unknown>> {
  return toOpenApiV3(await compiler.compile(definition).parameterSchema());
}

/** JSON Schema → OpenAPI v3: `null` types become `nullable`, `const` an `enum`, unknown keywords go. */
export function toOpenApiV3(schema: ParameterSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED.has(key)) continue;
    if (key === 'const') out.enum = [value];
    else if (key === 'type' && Array.isArray(value)) {
      const types = value.filter((t) => t !== 'null');
      if (types.length < value.length) out.nullable = true;
      if (types.length === 1) out.type = types[0];
      else if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }));
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value)) {
      const branches = value.filter((b) => !isNullType(b));
      if (branches.length < value.length) out.nullable = true;
      if (branches.length === 1) Object.assign(out, toOpenApiV3(branches[0] as ParameterSchema));
      else out[key] = branches.map((b) => toOpenApiV3(b as ParameterSchema));
    } else if ((key === 'properties' || key === 'patternProperties') && isJsonObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, isJsonObject(v) ? toOpenApiV3(v) : v]),
      );
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isJsonObject(value)) {
      out[key] = toOpenApiV3(value);
    } else if (key === 'allOf' && Array.isArray(value)) {
      out[key] = value.map((b) => (isJsonObject(b) ? toOpenApiV3(b) : b));
    } else out[key] = value;
  }
  return out;
}

function isNullType(v: unknown): boolean {
  return isJsonObject(v) && v.type === 'null' && Object.keys(v).length === 1;
}
