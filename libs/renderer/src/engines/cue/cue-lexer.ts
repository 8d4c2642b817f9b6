/**
 * A small CUE tokenizer: just enough to find labels, brackets and comments in
 * template source text. cue-wasm's AST export drops comments, and the
 * KubeVela markers we need (`// +patchKey=`, `// +patchStrategy=`) live in
 * comments, so the few facts we read from the source come from here.
 */
export type TokenKind = 'ident' | 'string' | 'comment' | 'newline' | 'punct' | 'number';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the first character in the source. */
  start: number;
  /** 1-based line of the first character. */
  line: number;
}

const IDENT_START = /[A-Za-z_$#]/;
const IDENT_PART = /[A-Za-z0-9_$#]/;

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  const push = (kind: TokenKind, start: number, startLine: number) =>
    tokens.push({ kind, text: source.slice(start, i), start, line: startLine });

  while (i < source.length) {
    const ch = source[i];
    const start = i;
    const startLine = line;
    if (ch === '\n') {
      i++;
      line++;
      push('newline', start, startLine);
    } else if (ch === ' ' || ch === '\t' || ch === '\r') {
      i++;
    } else if (ch === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      push('comment', start, startLine);
    } else if (isStringStart(source, i)) {
      const end = skipString(source, i);
      line += countNewlines(source, i, end);
      i = end;
      push('string', start, startLine);
    } else if (IDENT_START.test(ch)) {
      while (i < source.length && IDENT_PART.test(source[i])) i++;
      push('ident', start, startLine);
    } else if (/[0-9]/.test(ch)) {
      while (i < source.length && /[0-9A-Za-z_.]/.test(source[i])) i++;
      push('number', start, startLine);
    } else {
      i++;
      push('punct', start, startLine);
    }
  }
  return tokens;
}

/** `"`, `'`, or `#…"` (raw strings open with hashes before the quote). */
function isStringStart(source: string, i: number): boolean {
  if (source[i] === '"' || source[i] === "'") return true;
  if (source[i] !== '#') return false;
  let j = i;
  while (source[j] === '#') j++;
  return source[j] === '"' || source[j] === "'";
}

/** Returns the offset just after the string starting at `i`, interpolations included. */
function skipString(source: string, i: number): number {
  let hashes = 0;
  while (source[i] === '#') {
    hashes++;
    i++;
  }
  const quote = source[i];
  const multi = source.startsWith(quote.repeat(3), i);
  const open = multi ? quote.repeat(3) : quote;
  const close = open + '#'.repeat(hashes);
  const escape = '\\' + '#'.repeat(hashes);
  i += open.length;
  while (i < source.length) {
    if (source.startsWith(close, i)) return i + close.length;
    if (source.startsWith(escape, i)) {
      i += escape.length;
      // `\(expr)` interpolation: the expression may itself contain strings and parentheses.
      if (source[i] === '(') i = skipInterpolation(source, i);
      else i++;
      continue;
    }
    if (!multi && source[i] === '\n') return i;
    i++;
  }
  return i;
}

function skipInterpolation(source: string, i: number): number {
  let depth = 0;
  while (i < source.length) {
    const ch = source[i];
    if (isStringStart(source, i) && ch !== '#') {
      i = skipString(source, i);
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return i;
}

function countNewlines(source: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (source[k] === '\n') n++;
  return n;
}

/** The expressions inside a string token's `\\(…)` interpolations. */
export function interpolations(token: Token): string[] {
  if (token.kind !== 'string') return [];
  const text = token.text;
  let hashes = 0;
  while (text[hashes] === '#') hashes++;
  const escape = '\\' + '#'.repeat(hashes) + '(';
  const found: string[] = [];
  for (let i = text.indexOf(escape); i >= 0; i = text.indexOf(escape, i)) {
    const open = i + escape.length - 1;
    const end = skipInterpolation(text, open);
    found.push(text.slice(open + 1, end - 1));
    i = end;
  }
  return found;
}

/** Tokens of the source and, recursively, of the expressions interpolated in its strings. */
export function tokenizeDeep(source: string): Token[][] {
  const tokens = significant(tokenize(source));
  return [tokens, ...tokens.flatMap((t) => interpolations(t).flatMap(tokenizeDeep))];
}

/** The tokens that matter for structure: no comments, no newlines. */
export function significant(tokens: Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'comment' && t.kind !== 'newline');
}

/**
 * Whether token `index` starts a field label: an identifier or string followed
 * by an optional `?`/`!` and a `:`.
 */
export function isLabelAt(tokens: Token[], index: number): boolean {
  const t = tokens[index];
  if (!t || (t.kind !== 'ident' && t.kind !== 'string')) return false;
  let j = index + 1;
  if (tokens[j]?.text === '?' || tokens[j]?.text === '!') j++;
  return tokens[j]?.text === ':' && tokens[j + 1]?.text !== ':';
}

/** The field name a label token stands for (quotes removed). */
export function labelName(token: Token): string {
  if (token.kind !== 'string') return token.text;
  try {
    return JSON.parse(token.text.replace(/^#+|#+$/g, '')) as string;
  } catch {
    // A raw or multi-line label: strip the quotes and keep the text as written.
    return token.text.replace(/^#*"+|"+#*$/g, '');
  }
}
