type Schema = Record<string, unknown>;

/**
 * JSON Schema from zod → a Kubernetes *structural* OpenAPI v3 schema:
 * every node typed, `const` as a one-value enum, free-form maps and
 * unknown values marked `x-kubernetes-preserve-unknown-fields` (the API
 * server prunes unknown fields otherwise), no `additionalProperties` beside
 * `properties`, no `$schema`/`propertyNames`, and no ±2^53 bounds zod adds
 * to every integer.
 */
export function toStructural(node: Schema): Schema {
  const out: Schema = {};
  const isUnknown = Object.keys(node).filter((k) => k !== '$schema' && k !== 'description').length === 0;
  if (isUnknown) return withDescription({ 'x-kubernetes-preserve-unknown-fields': true }, node);
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case '$schema':
      case 'propertyNames':
        break;
      case 'const':
        out.enum = [value];
        break;
      case 'minimum':
      case 'maximum':
        if (Math.abs(value as number) < Number.MAX_SAFE_INTEGER) out[key] = value;
        break;
      case 'properties':
        out.properties = Object.fromEntries(
          Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, toStructural(v)]),
        );
        break;
      case 'items':
        out.items = toStructural(value as Schema);
        break;
      case 'additionalProperties':
        break; // handled below, because it depends on `properties`
      case 'anyOf':
      case 'oneOf':
        // Structural schemas forbid types inside anyOf/oneOf; our schemas only use them for optional unions.
        return withDescription({ 'x-kubernetes-preserve-unknown-fields': true }, node);
      default:
        out[key] = value;
    }
  }
  const additional = node.additionalProperties as Schema | boolean | undefined;
  if (additional !== undefined && additional !== false) {
    const free = additional === true || Object.keys(additional).length === 0;
    if (node.properties) {
      if (free) out['x-kubernetes-preserve-unknown-fields'] = true;
    } else if (free) {
      out['x-kubernetes-preserve-unknown-fields'] = true;
    } else {
      out.additionalProperties = toStructural(additional as Schema);
    }
  }
  return out;
}

function withDescription(out: Schema, node: Schema): Schema {
  return typeof node.description === 'string' ? { ...out, description: node.description } : out;
}
