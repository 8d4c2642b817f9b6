/**
 * OpenAPI v3 component schemas for /openapi/v3/<group>/<version>, so that `kubectl explain`
 * can walk the fields of a kind. Built-in kinds come from @kubernetes/client-node's generated
 * models (`attributeTypeMap`: every property with its type and format, generated from the
 * Kubernetes OpenAPI document, without descriptions); custom resources from their CRD's
 * openAPIV3Schema.
 */
import * as models from '@kubernetes/client-node/dist/gen/models/all.js';

interface Attribute {
  baseName: string;
  type: string;
  format: string;
}

type Schema = Record<string, unknown>;

const modelTable = models as Record<string, { attributeTypeMap?: Attribute[] } | undefined>;
const ARRAY = /^Array<(.+)>$/;
const MAP = /^\{ \[key: string\]: (.+); \}$/;

/** The component name of a generated model: V1DeploymentSpec -> io.k8s.oam-local.v1.DeploymentSpec. */
function componentName(model: string): string {
  const m = /^(?:([A-Z][a-z]+)?(V\d+(?:alpha\d+|beta\d+)?))?(.+)$/.exec(model) as RegExpExecArray;
  const version = (m[2] ?? 'v1').toLowerCase();
  const group = m[1] ? `${m[1].toLowerCase()}.` : '';
  return `io.k8s.oam-local.${group}${version}.${m[3]}`;
}

/** The generated model of a built-in kind (V1Deployment, V2HorizontalPodAutoscaler, CoreV1Event, EventsV1Event). */
export function modelOf(group: string, version: string, kind: string): string | undefined {
  const v = version.charAt(0).toUpperCase() + version.slice(1);
  const prefix = (group.split('.')[0] || 'core').replace(/^./, (c) => c.toUpperCase());
  return [`${v}${kind}`, `${prefix}${v}${kind}`].find((name) => modelTable[name]?.attributeTypeMap);
}

/** Collects a model's schema (and those it references) into `out`; returns a $ref to it. */
export function modelSchemaRef(model: string, out: Record<string, Schema>): Schema {
  const name = componentName(model);
  if (!out[name]) {
    out[name] = {}; // placeholder against cycles (JSONSchemaProps refers to itself)
    const properties: Record<string, Schema> = {};
    for (const attr of modelTable[model]?.attributeTypeMap ?? [])
      properties[attr.baseName] = typeSchema(attr.type, attr.format, out);
    out[name] = { type: 'object', properties };
  }
  return { $ref: `#/components/schemas/${name}` };
}

function typeSchema(type: string, format: string, out: Record<string, Schema>): Schema {
  const array = ARRAY.exec(type);
  if (array) return { type: 'array', items: typeSchema(array[1], format, out) };
  const map = MAP.exec(type);
  if (map) return { type: 'object', additionalProperties: typeSchema(map[1], format, out) };
  if (modelTable[type]?.attributeTypeMap) return { allOf: [modelSchemaRef(type, out)] };
  switch (type) {
    case 'string':
      return format ? { type: 'string', format } : { type: 'string' };
    case 'number':
      return format === 'double' ? { type: 'number', format } : { type: 'integer', format };
    case 'boolean':
      return { type: 'boolean' };
    case 'Date':
    case 'V1MicroTime':
      return { type: 'string', format: 'date-time' };
    case 'IntOrString':
      return { 'x-kubernetes-int-or-string': true };
    default:
      return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  }
}

/** A CRD version's openAPIV3Schema with metadata pointing at ObjectMeta, as apiextensions-apiserver publishes it. */
export function customResourceSchema(schema: Schema | undefined, out: Record<string, Schema>): Schema {
  const base: Schema = schema
    ? structuredClone(schema)
    : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const properties = { ...((base.properties as Record<string, Schema> | undefined) ?? {}) };
  properties.apiVersion ??= { type: 'string' };
  properties.kind ??= { type: 'string' };
  properties.metadata = { allOf: [modelSchemaRef('V1ObjectMeta', out)] };
  return { ...base, type: 'object', properties };
}
