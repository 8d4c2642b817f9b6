import { stringify } from 'yaml';

/** Characters JSON leaves raw that YAML would read as line breaks or refuses as non-printable. */
const YAML_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

function escapeUnsafe(json: string): string {
  return json.replace(YAML_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A value as one YAML flow node on one line: strings double-quoted, numbers
 * and booleans as they are, null as null, maps and lists as flow JSON. JSON
 * is a subset of YAML's flow style, so whatever the value holds (newlines,
 * `: `, `#`, quotes) it stays a single value and cannot add keys or documents.
 */
export function yamlFlow(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return '.nan';
    if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function' || typeof value === 'symbol') return 'null';
  return escapeUnsafe(JSON.stringify(value) ?? 'null');
}

export const MAX_INDENT = 100;

/**
 * A value as block YAML, every non-empty line indented by `indent` spaces:
 * for placing a nested structure under a key on its own lines. Serialised by
 * the yaml library, so strings that look like other types are quoted. Strings
 * are never block scalars: a `|+` block keeps trailing newlines only as blank
 * lines, which the template's own line breaks would change (found by the
 * round-trip property in security.spec.ts with the value "\n").
 */
export function yamlBlock(value: unknown, indent: number): string {
  const text = stringify(value === undefined ? null : value, {
    lineWidth: 0,
    minContentWidth: 0,
    blockQuote: false,
    aliasDuplicateObjects: false,
  }).replace(/\n$/, '');
  const pad = ' '.repeat(indent);
  return text
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
}
