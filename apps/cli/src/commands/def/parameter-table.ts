import { isJsonObject } from '#kube-core';

export interface ParameterRow {
  /** Indented two spaces per level of nesting. */
  name: string;
  type: string;
  required: boolean;
  default: string;
  description: string;
}

type Schema = Record<string, unknown>;

/**
 * An OpenAPI v3 parameter schema (as `parameterOpenApiSchema` publishes it)
 * as table rows: each property, then the fields of an object (or of a list's
 * items) below it, indented.
 */
export function parameterRows(schema: Schema, depth = 0): ParameterRow[] {
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rows: ParameterRow[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const prop = isJsonObject(value) ? (value as Schema) : {};
    rows.push({
      name: `${'  '.repeat(depth)}${name}`,
      type: typeName(prop),
      required: required.has(name),
      default: prop.default === undefined ? '' : formatDefault(prop.default),
      description: typeof prop.description === 'string' ? oneLine(prop.description) : '',
    });
    const nested = fieldsOf(prop);
    if (nested) rows.push(...parameterRows(nested, depth + 1));
  }
  return rows;
}

/** `string`, `[]object`, `map[string]string`, `"a"|"b"`, `int|string`. */
export function typeName(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join('|');
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(branches)) return [...new Set(branches.map((b) => typeName(b)))].join('|');
  const type = typeof schema.type === 'string' ? schema.type : undefined;
  if (type === 'array') return `[]${isJsonObject(schema.items) ? typeName(schema.items as Schema) : 'any'}`;
  if (type === 'object' && !isJsonObject(schema.properties) && isJsonObject(schema.additionalProperties))
    return `map[string]${typeName(schema.additionalProperties as Schema)}`;
  return type ?? 'any';
}

/** The object whose fields go below a row: the property's own, or its list items'. */
function fieldsOf(schema: Schema): Schema | undefined {
  if (isJsonObject(schema.properties) && Object.keys(schema.properties).length > 0) return schema;
  if (isJsonObject(schema.items)) return fieldsOf(schema.items as Schema);
  if (isJsonObject(schema.additionalProperties)) return fieldsOf(schema.additionalProperties as Schema);
  return undefined;
}

function formatDefault(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
