import type { FieldDeclaration } from './cue-fields.js';
import { tokenize } from './cue-lexer.js';

/**
 * The template line a CUE error is about. cue-wasm passes on CUE's message
 * without its positions, so the line is found again: from the field path the
 * message starts with (`outputs.hpa.spec: ...` → the line declaring it), or,
 * for a syntax error, by parsing ever longer prefixes of the template.
 */

/**
 * The line of a `12:3: message` position CUE puts in front of some messages
 * (compile errors from the OpenAPI export), when it is a line of the template
 * rather than of what we appended to it.
 */
export function sourcePosition(message: string, template: string): number | undefined {
  const line = Number(/^(\d+):\d+: /.exec(message)?.[1]);
  return line > 0 && line <= template.split('\n').length ? line : undefined;
}

/** Field path at the start of a CUE message: `a.b."c-d".0: ...` → `["a", "b", "c-d", "0"]`. */
export function errorPath(message: string): string[] | undefined {
  const segment = String.raw`(?:[#_$A-Za-z][\w$#]*|"(?:[^"\\]|\\.)*"|\d+)`;
  const match = new RegExp(`^(${segment}(?:\\.${segment})*): `).exec(message);
  if (!match) return undefined;
  return [...match[1].matchAll(new RegExp(segment, 'g'))].map((m) =>
    m[0].startsWith('"') ? (JSON.parse(m[0]) as string) : m[0],
  );
}

/** The line of the declaration that best matches `path` (the longest declared prefix of it). */
export function declarationLine(
  path: readonly string[],
  declarations: readonly FieldDeclaration[],
): number | undefined {
  // Messages name hidden fields without their `_` (see cleanCueMessage) and list items by index.
  const norm = (seg: string) => (/^\d+$/.test(seg) ? '[]' : seg.replace(/^[_#]/, ''));
  const wanted = path.map(norm);
  let best: { line: number; length: number } | undefined;
  for (const d of declarations) {
    const declared = d.path.map(norm);
    if (declared.length > wanted.length || (best && declared.length <= best.length)) continue;
    if (declared.every((seg, i) => seg === wanted[i])) best = { line: d.label.line, length: declared.length };
  }
  return best?.line;
}

/** The first line reading `context.<key>`. */
export function contextKeyLine(source: string, key: string): number | undefined {
  const tokens = tokenize(source).filter((t) => t.kind !== 'comment' && t.kind !== 'newline');
  const at = tokens.findIndex(
    (t, i) => t.text === 'context' && tokens[i + 1]?.text === '.' && tokens[i + 2]?.text === key,
  );
  return at === -1 ? undefined : tokens[at].line;
}

/** A field that references nothing: once the text before it parses, compiling fails on it, and nothing is evaluated. */
const PROBE = '\n_oamLineProbe: _oamUndefinedReference\n';

/**
 * The line of a syntax error: the shortest prefix of whole lines that fails
 * with the same first message. `firstError` compiles a source and returns its
 * first error message (undefined when it compiles).
 */
export async function syntaxErrorLine(
  template: string,
  firstError: (source: string) => Promise<string | undefined>,
): Promise<number | undefined> {
  const lines = template.split('\n');
  const prefix = (n: number) => lines.slice(0, n).join('\n') + PROBE;
  const wanted = await firstError(prefix(lines.length));
  if (wanted === undefined || wanted.includes('_oamUndefinedReference')) return undefined; // not a syntax error
  // Unclosed at the end of the text: every prefix fails alike, and the end is where CUE stopped.
  if (wanted.includes("found 'EOF'")) return lines.findLastIndex((l) => l.trim() !== '') + 1 || undefined;
  let lo = 1;
  let hi = lines.length;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if ((await firstError(prefix(mid))) === wanted) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** CUE's first error of a list: without the `(and N more errors)` count, which differs between prefixes. */
export function firstMessage(raw: string): string {
  return raw.replace(/ \(and \d+ more errors?\)$/, '').split('\n')[0];
}
