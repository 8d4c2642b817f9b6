import { isLabelAt, labelName, tokenize, type Token } from './cue-lexer.js';

/** One field declaration found in CUE source text. */
export interface FieldDeclaration {
  /** Map keys from the file's root; "[]" stands for "every item of this list". */
  path: string[];
  /** `//` comment lines directly above the declaration, without the slashes. */
  comments: string[];
  /** The label token of the first field of the declaration (`a` in `a: b: c: 1`). */
  label: Token;
  /** Declared at file level (possibly inside a top-level `if`/`for` block). */
  topLevel: boolean;
}

interface Frame {
  /** Path segments this bracket adds: the labels it is the value of, plus "[]" for a list. */
  segments: string[];
  closer: string;
  /** The body of an `if`/`for` comprehension: its fields belong to the enclosing struct. */
  clauseBody: boolean;
}

const CLOSERS: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/**
 * Every field declaration with its path, by tracking the brace/bracket
 * nesting of the source. Comprehension blocks (`if …{`, `for …{`) add no path
 * segment, so a field inside `if parameter.x != _|_ { … }` has the path of the
 * enclosing struct, as it has once CUE evaluates it.
 */
export function fieldDeclarations(source: string): FieldDeclaration[] {
  return scanFields(source).declarations;
}

/**
 * The paths of struct literals that say `...` (open: any other field is
 * allowed). CUE's OpenAPI export drops this, so the schema learns it here.
 * A `...` inside a list (`[...T]`) is an open list, not an open struct.
 */
export function openStructPaths(source: string): string[][] {
  return scanFields(source).openStructs;
}

/** Both of the above from one pass over the source. */
export function scanFields(source: string): { declarations: FieldDeclaration[]; openStructs: string[][] } {
  const tokens = tokenize(source);
  const openStructs: string[][] = [];
  const sig = tokens.filter((t) => t.kind !== 'comment' && t.kind !== 'newline');
  const decls: { decl: FieldDeclaration; base: string[]; chain: string[] }[] = [];
  const stack: Frame[] = [];
  let chain: string[] = [];
  let comments: string[] = [];
  let s = 0; // index into sig, kept in step with the full token list
  let clauseAt = -1; // stack depth of an open `if`/`for` clause waiting for its `{`

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'comment') {
      comments.push(t.text.replace(/^\/\/\s?/, ''));
      continue;
    }
    if (t.kind === 'newline') {
      chain = [];
      continue;
    }
    const k = s++;
    const prev = sig[k - 1];
    const startsDecl = !prev || prev.line !== t.line || ['{', ',', ':'].includes(prev.text);
    if (startsDecl && isLabelAt(sig, k)) {
      const continuing = prev?.text === ':' && chain.length > 0;
      if (!continuing) {
        chain = [];
        const base = stack.flatMap((f) => f.segments);
        const topLevel = stack.every((f) => f.clauseBody);
        decls.push({ decl: { path: [], comments, label: t, topLevel }, base, chain });
        comments = [];
      }
      chain.push(labelName(t));
      // Skip the optional marker and the colon: they belong to this label.
      const colon = sig[k + 1].text === ':' ? k + 1 : k + 2;
      i = tokens.indexOf(sig[colon], i);
      s = colon + 1;
      continue;
    }
    if (t.text === '.' && sig[k + 1]?.text === '.' && sig[k + 2]?.text === '.') {
      const top = stack[stack.length - 1];
      if (top?.closer === '}') openStructs.push(stack.flatMap((f) => f.segments));
      i = tokens.indexOf(sig[k + 2], i);
      s = k + 3;
      chain = [];
      continue;
    }
    if (startsDecl && (t.text === 'if' || t.text === 'for') && t.kind === 'ident') {
      clauseAt = stack.length;
    } else if (t.text in CLOSERS) {
      const segments = t.text === '[' ? [...chain, '[]'] : chain;
      const clauseBody = t.text === '{' && clauseAt === stack.length;
      if (clauseBody) clauseAt = -1;
      stack.push({ segments, closer: CLOSERS[t.text], clauseBody });
      chain = [];
    } else if (t.text === '}' || t.text === ']' || t.text === ')') {
      if (stack.length > 0 && stack[stack.length - 1].closer === t.text) stack.pop();
      chain = [];
      comments = [];
    } else if (t.text === ',') {
      chain = [];
    }
  }
  const declarations = decls.map(({ decl, base, chain: c }) => ({ ...decl, path: [...base, ...c] }));
  return { declarations, openStructs };
}

/** `["spec", "containers", "[]", "env"]` → `spec.containers[].env`. */
export function joinPath(path: string[]): string {
  return path.reduce((acc, seg) => (seg === '[]' ? `${acc}[]` : acc ? `${acc}.${seg}` : seg), '');
}
