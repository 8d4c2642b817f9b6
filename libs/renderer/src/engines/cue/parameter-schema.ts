import type { ParameterSchema } from '../engine.js';
import type { FieldDeclaration } from './cue-fields.js';
import { markOpenStructs, requiredByCue } from './schema-agreement.js';

type Schema = Record<string, unknown>;

/** Number formats OpenAPI adds that JSON Schema validators do not know. */
const OPENAPI_ONLY_FORMATS = new Set(['int32', 'int64', 'float', 'double']);

/**
 * The JSON Schema of a template's `parameter`, from CUE's own OpenAPI export
 * of `#parameter`: references to the template's definitions (`#HealthProbe`)
 * inlined, OpenAPI 3.0 quirks turned into JSON Schema (nullable, boolean
 * exclusive bounds), loosened to what CUE accepts (see schema-agreement.ts:
 * only fields CUE cannot complete are required, open structs stay open, a
 * disjunction needs one matching alternative, not exactly one), and
 * `// +usage=` comments as descriptions.
 */
export function parameterSchemaFromOpenApi(
  openapi: string,
  declarations: readonly FieldDeclaration[] = [],
  openStructs: readonly string[][] = [],
): ParameterSchema {
  const doc = JSON.parse(openapi) as { components?: { schemas?: Record<string, Schema> } };
  const schemas = doc.components?.schemas ?? {};
  const root = schemas.parameter;
  if (!root) return { type: 'object', properties: {} };
  markOpenStructs(schemas, openStructs);
  const schema = convert(root, schemas, []);
  addMissingUsage(schema, declarations);
  return schema;
}

/**
 * CUE's export drops the comment of a field whose value is a reference
 * (`livenessProbe?: #HealthProbe`); the source text still has it.
 */
function addMissingUsage(schema: Schema, declarations: readonly FieldDeclaration[]): void {
  for (const decl of declarations) {
    if (decl.path[0] !== 'parameter' || decl.path.length < 2) continue;
    const node = decl.path.slice(1).reduce<Schema | undefined>((at, seg) => {
      if (!at) return undefined;
      if (seg === '[]') return at.items as Schema | undefined;
      return (at.properties as Record<string, Schema> | undefined)?.[seg];
    }, schema);
    if (node && node.description === undefined) {
      const text = usageText(decl.comments.join('\n'));
      if (text) node.description = text;
    }
  }
}

function convert(node: Schema, schemas: Record<string, Schema>, resolving: string[]): Schema {
  const ref =
    typeof node.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(node.$ref)?.[1] : undefined;
  if (ref !== undefined) {
    const target = schemas[ref];
    // A recursive definition cannot be inlined; past the first level it accepts anything.
    if (!target || resolving.includes(ref)) return {};
    return convert(target, schemas, [...resolving, ref]);
  }
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable' || key === 'exclusiveMinimum' || key === 'exclusiveMaximum') continue;
    if (key === 'format' && OPENAPI_ONLY_FORMATS.has(String(value))) continue;
    if (key === 'description') {
      const text = usageText(String(value));
      if (text) out.description = text;
    } else if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, convert(v, schemas, resolving)]),
      );
    } else if (key === 'items' || key === 'additionalProperties' || key === 'not') {
      out[key] =
        typeof value === 'object' && value !== null ? convert(value as Schema, schemas, resolving) : value;
    } else if (key === 'oneOf' || key === 'anyOf') {
      // CUE takes a disjunction when any alternative unifies (ambiguity is its own, later, error).
      out.anyOf = (value as Schema[]).map((v) => convert(v, schemas, resolving));
    } else if (key === 'allOf') {
      out[key] = (value as Schema[]).map((v) => convert(v, schemas, resolving));
    } else out[key] = value;
  }
  if (node.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (node.exclusiveMinimum === true && typeof node.minimum === 'number') {
    out.exclusiveMinimum = node.minimum;
    delete out.minimum;
  }
  if (node.exclusiveMaximum === true && typeof node.maximum === 'number') {
    out.exclusiveMaximum = node.maximum;
    delete out.maximum;
  }
  const required = requiredByCue(out.required, out.properties as Record<string, Schema> | undefined);
  if (required) out.required = required;
  else delete out.required;
  return out;
}

/**
 * KubeVela's comment markers: `+usage=` is the description, other `+x=`
 * markers (`+short=`, `+ignore`) are for tools; plain comment lines are kept.
 */
function usageText(comment: string): string {
  const lines = comment.split('\n').map((l) => l.trim());
  const usage = lines.filter((l) => l.startsWith('+usage=')).map((l) => l.slice('+usage='.length).trim());
  if (usage.length > 0) return usage.join(' ');
  return lines.filter((l) => l && !l.startsWith('+')).join(' ');
}
