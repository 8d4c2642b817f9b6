/** One row of a type's parameter table; `depth` indents nested fields. */
export interface ParamRow {
  path: string;
  name: string;
  depth: number;
  type: string;
  required: boolean;
  default?: unknown;
  description?: string;
}

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  enum?: unknown[];
  default?: unknown;
  description?: string;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

function typeOf(s: Schema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return alts.map(typeOf).join(' | ');
  const t = Array.isArray(s.type) ? s.type.filter((x) => x !== 'null').join(' | ') : (s.type ?? 'any');
  if (t === 'array' && s.items) return `${typeOf(s.items)}[]`;
  if (t === 'object' && typeof s.additionalProperties === 'object')
    return `map of ${typeOf(s.additionalProperties)}`;
  return t;
}

/** Flattens a JSON Schema's properties into table rows, children after their parent (arrays' items too). */
export function paramRows(schema: Schema, prefix = '', depth = 0): ParamRow[] {
  const rows: ParamRow[] = [];
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    rows.push({
      path,
      name,
      depth,
      type: typeOf(s),
      required: (schema.required ?? []).includes(name),
      default: s.default,
      description: s.description,
    });
    const nested = s.properties ? s : s.items?.properties ? s.items : undefined;
    if (nested) rows.push(...paramRows(nested, s.items ? `${path}[]` : path, depth + 1));
  }
  return rows;
}
