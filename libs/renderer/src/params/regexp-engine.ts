import { createRequire } from 'node:module';
import type { RegExpEngine, RegExpLike } from 'ajv/dist/types/index.js';

/**
 * The regular-expression engine for `pattern` (and `patternProperties`) in
 * parameter schemas. JavaScript's backtracking engine takes exponential time
 * on patterns like `^(a+)+$` (26 characters: 4 s, on the main thread), and
 * definitions come from anyone with access to the cluster. RE2 (Google's,
 * compiled to WebAssembly: the `re2-wasm` package) matches in linear time,
 * and it is also the syntax CUE's `=~` uses (`(?i)...`), so a CUE template's
 * pattern means here what it means in CUE. RE2 has no backreferences and no
 * lookaround; a pattern using them is refused as a definition error.
 *
 * `re2-wasm` arrives as an optional dependency of kubernetes-models; should it
 * be missing, JavaScript's engine is used for the patterns that cannot
 * backtrack exponentially, and the others are refused.
 */
interface Re2Constructor {
  new (pattern: string, flags: string): RegExpLike;
}

const require = createRequire(import.meta.url);

/** Loaded on the first pattern (about 30 ms): most schemas have none. */
let re2: Re2Constructor | undefined | null = null;
function loadRe2(): Re2Constructor | undefined {
  if (re2 === null) {
    try {
      re2 = (require('re2-wasm') as { RE2: Re2Constructor }).RE2;
    } catch {
      re2 = undefined;
    }
  }
  return re2;
}

/** Compiled once per pattern: RE2 objects live in WebAssembly memory, which the GC does not reclaim. */
const compiled = new Map<string, RegExpLike>();

function linearRegExp(pattern: string): RegExpLike {
  let rx = compiled.get(pattern);
  if (rx) return rx;
  const RE2 = loadRe2();
  try {
    rx = RE2 ? new RE2(pattern, 'u') : guardedRegExp(pattern);
  } catch (err) {
    const why = (err as Error).message;
    const hint = RE2 ? ' (patterns run on RE2, as in CUE: linear time, no backreferences or lookaround)' : '';
    throw new Error(`${why}${hint}`, { cause: err });
  }
  compiled.set(pattern, rx);
  return rx;
}

export const regExpEngine: RegExpEngine = Object.assign((pattern: string) => linearRegExp(pattern), {
  code: 'linearRegExp',
});

/** The fallback: JavaScript's engine, only for patterns that cannot backtrack exponentially. */
function guardedRegExp(pattern: string): RegExp {
  const problem = backtrackingRisk(pattern);
  if (problem) throw new Error(`Unsafe regular expression /${pattern}/: ${problem}`);
  return new RegExp(pattern, 'u');
}

/**
 * Why a pattern may backtrack exponentially: a backreference, or a repeated
 * group that itself repeats (`(a+)+`, `(a|b)*` followed by ...). Conservative:
 * it refuses some safe patterns, never lets a nested repetition through.
 */
export function backtrackingRisk(pattern: string): string | undefined {
  const groups: { repeats: boolean; alternates: boolean }[] = [{ repeats: false, alternates: false }];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      if (!inClass && /[1-9k]/.test(pattern[i + 1] ?? '')) return 'backreferences are not supported';
      i++;
    } else if (inClass) {
      if (ch === ']') inClass = false;
    } else if (ch === '[') inClass = true;
    else if (ch === '(') groups.push({ repeats: false, alternates: false });
    else if (ch === '|') groups[groups.length - 1].alternates = true;
    else if (ch === ')' && groups.length > 1) {
      const inner = groups.pop()!;
      if (repeatsAt(pattern, i + 1) && (inner.repeats || inner.alternates))
        return 'a repeated group that repeats or alternates inside (like (a+)+) can take exponential time';
      if (inner.repeats || repeatsAt(pattern, i + 1)) groups[groups.length - 1].repeats = true;
    } else if (repeatsAt(pattern, i)) groups[groups.length - 1].repeats = true;
  }
  return undefined;
}

/** `*`, `+` or `{n,}` / `{n,m}` with m > 1 at `i`: more than one repetition (`?` and `{1}` are not). */
function repeatsAt(pattern: string, i: number): boolean {
  const ch = pattern[i];
  if (ch === '*' || ch === '+') return true;
  const bounds = ch === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i)) : null;
  return bounds !== null && bounds[2] !== undefined && (bounds[3] === '' || Number(bounds[3]) > 1);
}
