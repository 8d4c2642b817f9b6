import type { ParameterSchema } from '../engines/engine.js';
import { unknownFieldMessage } from './ajv-messages.js';
import { childPath, ROOT } from './property-path.js';
import type { ParamIssue } from './types.js';

type Schema = Record<string, unknown>;

/** What a schema (with its allOf/anyOf/oneOf alternatives) says about an object's fields. */
interface FieldRules {
  properties: Map<string, Schema>;
  listsProperties: boolean;
  /** `additionalProperties` (any value), `patternProperties` or `unevaluatedProperties` is set. */
  open: boolean;
  additional?: Schema;
}

/**
 * Fields the schema does not name. KubeVela's parameter structs are open in
 * CUE, so JSON Schema's default (anything goes) would hide every typo; here a
 * field absent from `properties` is unknown unless the schema says otherwise
 * with `additionalProperties`. ajv reports `additionalProperties: false`
 * itself; this walk covers the schemas that are silent about it, nested maps
 * and list items included.
 */
export function unknownFields(schema: ParameterSchema, value: unknown, strict: boolean): ParamIssue[] {
  const issues: ParamIssue[] = [];
  walk(schema, schema, value, ROOT, strict ? 'error' : 'warning', issues, 0);
  return issues;
}

const MAX_DEPTH = 64;

function walk(
  root: Schema,
  node: Schema,
  value: unknown,
  path: string,
  severity: ParamIssue['severity'],
  issues: ParamIssue[],
  depth: number,
): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  const schema = resolve(root, node);
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
    value.forEach((item, i) => {
      const itemSchema = prefix[i] ?? (isSchema(schema.items) ? schema.items : undefined);
      if (itemSchema) walk(root, itemSchema, item, childPath(path, i), severity, issues, depth + 1);
    });
    return;
  }
  const rules = fieldRules(root, schema);
  const known = [...rules.properties.keys()];
  for (const [key, child] of Object.entries(value)) {
    const childSchema = rules.properties.get(key) ?? rules.additional;
    if (childSchema) walk(root, childSchema, child, childPath(path, key), severity, issues, depth + 1);
    else if (rules.listsProperties && !rules.open)
      issues.push({ path: childPath(path, key), message: unknownFieldMessage(key, known), severity });
  }
}

function fieldRules(root: Schema, schema: Schema): FieldRules {
  const rules: FieldRules = { properties: new Map(), listsProperties: false, open: false };
  const visit = (s: Schema, level: number) => {
    if (isSchema(s.properties)) {
      rules.listsProperties = true;
      for (const [k, v] of Object.entries(s.properties))
        if (!rules.properties.has(k) && isSchema(v)) rules.properties.set(k, v);
    }
    if (
      s.additionalProperties !== undefined ||
      s.patternProperties !== undefined ||
      s.unevaluatedProperties !== undefined
    )
      rules.open = true;
    if (isSchema(s.additionalProperties) && !rules.additional) rules.additional = s.additionalProperties;
    if (level > 8) return;
    for (const keyword of ['allOf', 'anyOf', 'oneOf', 'then', 'else']) {
      const branches = s[keyword];
      const list = Array.isArray(branches) ? branches : isSchema(branches) ? [branches] : [];
      for (const branch of list) if (isSchema(branch)) visit(resolve(root, branch), level + 1);
    }
  };
  visit(schema, 0);
  return rules;
}

/** Follows local references (`#/$defs/probe`); anything else is taken as an open schema. */
function resolve(root: Schema, schema: Schema): Schema {
  let current = schema;
  for (let hops = 0; typeof current.$ref === 'string' && hops < 16; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#')) return {};
    let target: unknown = root;
    for (const raw of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      target = isSchema(target) && Object.hasOwn(target, key) ? target[key] : undefined;
    }
    if (!isSchema(target)) return {};
    current = target;
  }
  return current;
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
