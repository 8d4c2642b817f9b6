import { isJsonObject } from '#kube-core';

/** Values a person would write for fields named so; anything else gets a value of its type. */
const BY_NAME: Record<string, unknown> = {
  image: 'nginx:1.27',
  port: 80,
  name: 'example',
  schedule: '*/5 * * * *',
  path: '/',
  mountPath: '/data',
  host: 'example.com',
  domain: 'example.com',
  // k8s-objects: a list of any Kubernetes objects, which must not be empty.
  objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'example' }, data: { key: 'value' } }],
};

function typeOf(v: unknown): string {
  return Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;
}

/**
 * An example `properties` object for a parameter schema (JSON Schema): the
 * required fields (and optional ones a person would fill in, by name, e.g.
 * `objects`), each with its default, first example or enum value, else a
 * plain value of its type; other optional fields are left to their defaults.
 */
export function exampleFor(schema: Record<string, unknown>): Record<string, unknown> {
  const value = exampleValue(schema, '', 0);
  return isJsonObject(value) ? value : {};
}

function exampleValue(schema: Record<string, unknown>, name: string, depth: number): unknown {
  const hint = BY_NAME[name];
  // A required list defaulting to empty may still need an entry (k8s-objects renders its first).
  const emptyDefault = Array.isArray(schema.default) && schema.default.length === 0 && Array.isArray(hint);
  if ('default' in schema && !emptyDefault) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      const first = branches.find((b) => isJsonObject(b) && b.type !== 'null');
      if (isJsonObject(first)) return exampleValue({ ...schema, [key]: undefined, ...first }, name, depth);
    }
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (depth > 8) return undefined;
  if (emptyDefault) return hint;
  if (hint !== undefined && (type === typeOf(hint) || (type === 'number' && typeOf(hint) === 'integer')))
    return hint;
  switch (type) {
    case 'object': {
      const props = isJsonObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const out: Record<string, unknown> = {};
      // Besides the required fields, those a person would fill in although the schema lets them out.
      const hinted = Object.keys(props).filter(
        (k) => k in BY_NAME && isJsonObject(props[k]) && !('default' in props[k]),
      );
      for (const key of [...new Set([...required, ...hinted])]) {
        const sub = props[key];
        const v = isJsonObject(sub) ? exampleValue(sub, key, depth + 1) : (BY_NAME[key] ?? 'example');
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      if (min === 0 || !isJsonObject(schema.items)) return [];
      return Array.from({ length: min }, () =>
        exampleValue(schema.items as Record<string, unknown>, name, depth + 1),
      );
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return false;
    case 'string':
      return 'example';
    default:
      return hint;
  }
}
