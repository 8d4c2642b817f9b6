/**
 * CUE's OpenAPI export is stricter than CUE itself: it lists as required
 * every regular field without an exported default, drops `...` (open
 * structs), and turns a disjunction of structs into `oneOf` (exactly one
 * must match). Validating with that would refuse properties CUE accepts, so
 * the exported schema is loosened here to what CUE would report: a field is
 * required only when CUE would find it incomplete if it were left out.
 */
type Schema = Record<string, unknown>;

/**
 * Whether CUE completes a field on its own when the user leaves it out: it
 * has a default or a single possible value; it is a list (`[...T]` and `*[] | [...T]` evaluate to `[]`);
 * or it is a struct or map none of whose fields is required
 * (`{type: *"Utilization" | string}`, `[string]: string`, `{...}`).
 * Children must already be loosened (their `required` trimmed).
 */
export function completesByItself(schema: Schema | undefined): boolean {
  if (!schema) return false;
  if ('default' in schema) return true;
  // `kind: "Foo"` exports as a one-value enum: already concrete.
  if (Array.isArray(schema.enum)) return schema.enum.length === 1;
  if (schema.oneOf || schema.anyOf || schema.allOf || schema.not) return false;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length !== 1) return false;
  if (types[0] === 'array') return !Array.isArray(schema.items) && !(Number(schema.minItems) > 0);
  const struct =
    types[0] === 'object' || (types[0] === undefined && (schema.properties || schema.additionalProperties));
  if (!struct) return false;
  return (
    !(Array.isArray(schema.required) && schema.required.length > 0) && !(Number(schema.minProperties) > 0)
  );
}

/** `required` without the fields CUE completes by itself; undefined when nothing is left. */
export function requiredByCue(
  required: unknown,
  properties: Record<string, Schema> | undefined,
): string[] | undefined {
  if (!Array.isArray(required)) return undefined;
  const left = (required as string[]).filter((k) => !completesByItself(properties?.[k]));
  return left.length > 0 ? left : undefined;
}

/**
 * Marks open structs (`{a: int, ...}`) as accepting any other field, so
 * neither ajv nor the unknown-field check complains about them. `paths` are
 * source paths: `["parameter", "objects", "[]"]`, or `["#Probe"]` for a
 * definition; they are looked up in the OpenAPI document's schemas.
 */
export function markOpenStructs(schemas: Record<string, Schema>, paths: readonly string[][]): void {
  for (const [root, ...rest] of paths) {
    const name = root === 'parameter' ? 'parameter' : root?.startsWith('#') ? root.slice(1) : undefined;
    const start = name === undefined ? undefined : schemas[name];
    for (const node of nodesAt(start, rest)) {
      if (node.additionalProperties === undefined) node.additionalProperties = true;
    }
  }
}

/** The schema nodes a source path reaches, looking into every alternative of a disjunction. */
function nodesAt(node: Schema | undefined, path: readonly string[]): Schema[] {
  if (!node) return [];
  const branches = ['oneOf', 'anyOf', 'allOf'].flatMap((k) =>
    Array.isArray(node[k]) ? (node[k] as Schema[]) : [],
  );
  if (path.length === 0) return [node];
  const [seg, ...rest] = path;
  const next =
    seg === '[]'
      ? (node.items as Schema | undefined)
      : (node.properties as Record<string, Schema> | undefined)?.[seg];
  return [...nodesAt(next, rest), ...branches.flatMap((b) => nodesAt(b, path))];
}
