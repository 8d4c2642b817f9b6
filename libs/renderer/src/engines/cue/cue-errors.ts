import { CONTEXT_KEYS } from '../engine.js';
import { RenderError } from '../../errors.js';
import { WorkerCrashError, WorkerTimeoutError } from '../worker-pool.js';
import { tokenizeDeep, type Token } from './cue-lexer.js';
import { contextKeyLine } from './template-lines.js';

/** Every `context.<key>` / `context["<key>"]` the source reads, in order, without duplicates. */
export function contextKeysRead(source: string): string[] {
  const keys = new Set<string>();
  for (const tokens of tokenizeDeep(source)) collectContextKeys(tokens, keys);
  return [...keys];
}

function collectContextKeys(tokens: Token[], keys: Set<string>): void {
  tokens.forEach((t, i) => {
    if (t.kind !== 'ident' || t.text !== 'context' || tokens[i - 1]?.text === '.') return;
    const next = tokens[i + 1];
    const key = tokens[i + 2];
    if (next?.text === '.' && key?.kind === 'ident' && next.start + 1 === key.start) keys.add(key.text);
    else if (next?.text === '[' && key?.kind === 'string' && tokens[i + 3]?.text === ']') {
      keys.add(key.text.replace(/^"|"$/g, ''));
    }
  });
}

export function missingContextKeyError(key: string): string {
  return `context.${key} is not provided by this platform (provided: ${CONTEXT_KEYS.join(', ')})`;
}

/**
 * CUE's message made readable: no marshal prefix, no names of the hidden
 * fields we introduced (`_exposePorts` reads `exposePorts` again), one line.
 */
export function cleanCueMessage(raw: string): string {
  return (
    raw
      .replace(/^cue: marshal error: /, '')
      // A source position: reported as the template line instead (see template-lines.ts).
      .replace(/^\d+:\d+: /, '')
      .replace(
        /cannot convert incomplete value "(.*?)" to JSON/g,
        'incomplete value $1 (no concrete value was given)',
      )
      .replace(/(^|[\s."(])_context\b/g, '$1context')
      .replace(/#parameter\b/g, 'parameter')
      .replace(/(^|[\s."(])_([A-Za-z][\w$]*)(?=[.:\s]|$)/g, '$1$2')
      .replace(
        /(\d+) errors in empty disjunction:( \(and \d+ more errors?\))?/g,
        'matches none of the allowed values ($1 errors in empty disjunction)',
      )
      .replace(/\s*\n\s*/g, '; ')
      .trim()
  );
}

const USER_CONFLICT =
  /none of the allowed|conflicting values|invalid value|out of bound|empty disjunction|does not match|not allowed|mismatched types/;

/**
 * Turns a failed evaluation into the error the renderer reports: a context
 * key we do not provide, a parameter value the template rejects (the user's
 * fault), or a broken template (the platform team's).
 */
export function toRenderError(
  definition: string,
  err: unknown,
  source: string,
  templateLine?: number,
): RenderError {
  if (err instanceof RenderError) return err;
  if (err instanceof WorkerTimeoutError) {
    return new RenderError(
      `${definition}: evaluation did not finish within ${err.timeoutMs} ms (the template may never terminate)`,
      {},
      'timeout',
    );
  }
  const raw = err instanceof Error ? err.message : String(err);
  if (err instanceof WorkerCrashError) {
    return new RenderError(`${definition}: the CUE evaluator failed: ${raw}`, {}, 'definition');
  }
  const message = cleanCueMessage(raw);
  const missing = missingContextKey(message, source);
  if (missing) {
    const at = atLine(definition, contextKeyLine(source, missing));
    return new RenderError(`${at}: ${missingContextKeyError(missing)}`, {}, 'definition');
  }
  const param = /^parameter\.([^:\s]+): (.*)$/.exec(message);
  if (param && USER_CONFLICT.test(param[2])) {
    return new RenderError(param[2], { path: `properties.${param[1]}` }, 'user');
  }
  if (param && /incomplete value/.test(param[2])) {
    const expected = /incomplete value (.*?)(?: \(and \d+ more errors?\))?$/.exec(param[2])?.[1];
    return new RenderError(
      `required${expected ? ` (expected ${expected})` : ''}`,
      { path: `properties.${param[1]}` },
      'user',
    );
  }
  return new RenderError(`${atLine(definition, templateLine)}: ${message}`, {}, 'definition');
}

/** `ComponentDefinition "x", template line 4`: CUE's own position, which cue-wasm does not pass on. */
function atLine(definition: string, line: number | undefined): string {
  return line ? `${definition}, template line ${line}` : definition;
}

/** The context key an "undefined field" error is about, when the template reads it and we do not provide it. */
function missingContextKey(message: string, source: string): string | undefined {
  const unprovided = contextKeysRead(source).filter((k) => !CONTEXT_KEYS.includes(k));
  if (unprovided.length === 0) return undefined;
  const undefinedField = /undefined field:? "?([\w$#-]+)"?/.exec(message)?.[1];
  if (undefinedField && unprovided.includes(undefinedField)) return undefinedField;
  return unprovided.find((k) => message.includes(`context.${k}`));
}
