import type { PatchKeys } from '../engine.js';
import { addPatchMarker, markEachList } from '../../patch/index.js';
import { fieldDeclarations, joinPath, type FieldDeclaration } from './cue-fields.js';
import { isLabelAt, significant, tokenize, type Token } from './cue-lexer.js';

/** KubeVela's findCommentTag: `+<name>=<one word>` after the slashes, spaces trimmed. */
const MARKER = /^\+\s*(patchKey|patchStrategy)\s*=\s*(\S+)\s*$/;

/** Top-level fields that are the template's interface, never helpers to inline. */
const INTERFACE_FIELDS = new Set(['parameter', 'patch', 'output', 'outputs', 'context', 'patchOutputs']);

/**
 * KubeVela's `// +patchKey=<field>` and `// +patchStrategy=<strategy>`
 * comments on fields inside `patch`, keyed by the path of the field they
 * annotate (`spec.template.spec.containers`, `spec.template.spec.containers[].env`;
 * "" for `patch` itself, where `jsonMergePatch` and `jsonPatch` go). A marker
 * above a chained declaration (`strategy: type: "Recreate"`) belongs to its last
 * field, as in KubeVela.
 *
 * With the template's source text, markers inside a `let` or a top-level helper
 * that the patch refers to (`containers: [resourceContent]`, KubeVela's resource
 * trait) apply where the patch uses it, as they do once CUE has evaluated the
 * patch; and lists written `[...X]` are marked `+each` (see `eachLists`).
 */
export function extractPatchKeys(declarations: readonly FieldDeclaration[], source?: string): PatchKeys {
  const keys: PatchKeys = {};
  const decls = source === undefined ? declarations : fieldDeclarations(inlineHelpers(source));
  for (const decl of decls) addMarkers(keys, decl);
  if (source !== undefined) for (const list of eachLists(source)) markEachList(keys, list.path);
  return keys;
}

function addMarkers(keys: PatchKeys, decl: FieldDeclaration): void {
  if (decl.path[0] !== 'patch') return;
  for (const comment of decl.comments) {
    const marker = MARKER.exec(comment.trim());
    if (!marker) continue;
    addPatchMarker(
      keys,
      joinPath(decl.path.slice(1)),
      marker[1] === 'patchKey' ? 'Key' : 'Strategy',
      marker[2],
    );
  }
}

/**
 * The lists inside `patch` written `[...X]` (one element constraint, no items):
 * CUE exports them as `[]`, so the engine blanks out the three dots at `start`
 * (keeping every offset and line), evaluates `[X]`, and applyPatch unifies X
 * with every item of the workload's list, as CUE would.
 */
export function eachLists(source: string): { path: string; start: number }[] {
  const sig = significant(tokenize(source));
  const indexOf = new Map(sig.map((t, i) => [t.start, i]));
  const found: { path: string; start: number }[] = [];
  for (const decl of fieldDeclarations(source)) {
    if (decl.path[0] !== 'patch') continue;
    let k = indexOf.get(decl.label.start) ?? -1;
    // Past the labels of the chain to the value.
    while (k >= 0 && isLabelAt(sig, k)) k += sig[k + 1].text === ':' ? 2 : 3;
    if (k < 0 || sig[k]?.text !== '[' || !isEllipsisAt(sig, k + 1) || sig[k + 4]?.text === ']') continue;
    const close = closing(sig, k);
    const inner = sig.slice(k + 4, close);
    if (topLevelComma(inner, true)) continue;
    found.push({ path: joinPath(decl.path.slice(1)), start: sig[k + 1].start });
  }
  return found;
}

function isEllipsisAt(sig: Token[], k: number): boolean {
  const [a, b, c] = [sig[k], sig[k + 1], sig[k + 2]];
  return (
    a?.text === '.' &&
    b?.text === '.' &&
    c?.text === '.' &&
    b.start === a.start + 1 &&
    c.start === b.start + 1
  );
}

const OPENERS: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** The sig index of the bracket closing the one at `k` (or sig.length). */
function closing(sig: Token[], k: number): number {
  let depth = 0;
  for (let i = k; i < sig.length; i++) {
    if (sig[i].text in OPENERS) depth++;
    else if (sig[i].text === '}' || sig[i].text === ']' || sig[i].text === ')') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return sig.length;
}

/** Whether `tokens` hold a comma outside brackets (a trailing one excepted when asked). */
function topLevelComma(tokens: Token[], allowTrailing: boolean): boolean {
  let depth = 0;
  return tokens.some((t, i) => {
    if (t.text in OPENERS) depth++;
    else if (t.text === '}' || t.text === ']' || t.text === ')') depth--;
    return depth === 0 && t.text === ',' && !(allowTrailing && i === tokens.length - 1);
  });
}

/**
 * The source with every reference to a `let` or top-level helper whose value
 * is a struct or list literal replaced by `(that literal)`, a few levels deep,
 * so the declarations (and their marker comments) inside appear at the paths
 * where the patch uses them; the `let` bindings themselves are removed (their
 * fields are not fields of the struct they sit in). Only for reading markers,
 * never evaluated.
 */
function inlineHelpers(source: string): string {
  const { bodies, lets } = helpers(source);
  if (bodies.size === 0) return source;
  const withoutLets = (text: string) => {
    let out = text;
    for (const span of helpers(text).lets.reverse()) out = out.slice(0, span.start) + out.slice(span.end);
    return out;
  };
  const literals = new Map([...bodies].map(([name, body]) => [name, withoutLets(body)]));
  let text = source;
  for (const span of [...lets].reverse()) text = text.slice(0, span.start) + text.slice(span.end);
  for (let round = 0; round < 4; round++) {
    const next = replaceReferences(text, literals);
    if (next === text || next.length > 1_000_000) break;
    text = next;
  }
  return text;
}

/** Helpers with a literal value (name → its text), and the spans of the `let` bindings among them. */
function helpers(source: string): { bodies: Map<string, string>; lets: { start: number; end: number }[] } {
  const sig = significant(tokenize(source));
  const bodies = new Map<string, string>();
  const lets: { start: number; end: number }[] = [];
  let depth = 0;
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    const literalAt = (v: number) => sig[v]?.text === '{' || sig[v]?.text === '[';
    if (t.text === 'let' && sig[i + 1]?.kind === 'ident' && sig[i + 2]?.text === '=' && literalAt(i + 3)) {
      const close = closing(sig, i + 3);
      if (close >= sig.length) break;
      bodies.set(sig[i + 1].text, source.slice(sig[i + 3].start, sig[close].start + 1));
      lets.push({ start: t.start, end: sig[close].start + 1 });
    } else if (depth === 0 && isLabelAt(sig, i) && t.kind === 'ident' && !INTERFACE_FIELDS.has(t.text)) {
      const v = sig[i + 1].text === ':' ? i + 2 : i + 3;
      const close = literalAt(v) ? closing(sig, v) : sig.length;
      if (close < sig.length) bodies.set(t.text, source.slice(sig[v].start, sig[close].start + 1));
    }
    if (t.text in OPENERS) depth++;
    else if (t.text === '}' || t.text === ']' || t.text === ')') depth--;
  }
  return { bodies, lets };
}

function replaceReferences(source: string, literals: Map<string, string>): string {
  const sig = significant(tokenize(source));
  const edits: { start: number; end: number; text: string }[] = [];
  sig.forEach((t, i) => {
    const literal = t.kind === 'ident' ? literals.get(t.text) : undefined;
    if (literal === undefined || isLabelAt(sig, i)) return;
    // A selection (`x.y`, `x[0]`) or a field of something else (`a.x`) is not the helper itself.
    if (sig[i - 1]?.text === '.' || sig[i + 1]?.text === '.' || sig[i + 1]?.text === '[') return;
    edits.push({ start: t.start, end: t.start + t.text.length, text: `(${literal})` });
  });
  let out = source;
  for (const e of edits.reverse()) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
