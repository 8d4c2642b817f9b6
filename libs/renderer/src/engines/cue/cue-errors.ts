import { CONTEXT_KEYS, type ParameterSchema } from '../engine.js';
import { RenderError, RenderErrors } from '../../errors.js';
import { isAbort, WorkerTaskError } from '../worker-pool.js';
import { limitError } from '../limit-errors.js';
import { validateProperties, type ParamIssue } from '../../params/index.js';
import { unknownFields } from '../../params/unknown-fields.js';
import { childPath, ROOT } from '../../params/property-path.js';
import type { Cue14Error, Cue14Vet } from './v14/cue14-pool.js';

export function missingContextKeyError(key: string): string {
  return `context.${key} is not provided by this platform (provided: ${CONTEXT_KEYS.join(', ')})`;
}

/** CUE's message made readable: what "incomplete" means here, one line. */
export function cleanCueMessage(raw: string): string {
  return raw
    .replace(/^cue: marshal error: /, '')
    .replace(
      /cannot convert incomplete value "(.*?)" to JSON/g,
      'incomplete value $1 (no concrete value was given)',
    )
    .replace(
      /(\d+) errors in empty disjunction:?( \(and \d+ more errors?\))?/g,
      'matches none of the allowed values ($1 errors in empty disjunction)$2',
    )
    .replace(/\s*\n\s*/g, '; ')
    .trim();
}

const USER_CONFLICT =
  /none of the allowed|conflicting values|invalid value|out of bound|empty disjunction|does not match|not allowed|mismatched types/;

/**
 * A failed CUE task as the renderer reports it: a timeout, a dead evaluator
 * (its worker is replaced), a context key we do not provide, a parameter value
 * the template rejects (the user's fault), or a broken template (the platform
 * team's), each CUE error with its field path and template line.
 */
export function toRenderErrors(definition: string, err: unknown, source: string): RenderError[] {
  if (err instanceof RenderErrors) return err.errors;
  if (err instanceof RenderError) return [err];
  if (isAbort(err)) throw err;
  const limited = limitError(definition, err, 'CUE');
  if (limited instanceof RenderError) return [limited];
  const raw = err instanceof Error ? err.message : String(err);
  if (!(err instanceof WorkerTaskError)) {
    return [new RenderError(`${definition}: the CUE evaluator failed: ${raw}`, {}, 'definition')];
  }
  const details = Array.isArray(err.details) ? (err.details as Cue14Error[]) : [];
  if (details.length === 0) details.push({ path: '', message: raw });
  if (details.length > 1 && details.every((e) => !e.path)) {
    // Syntax errors: the first is the one to fix, the rest mostly follow from it.
    const more = details.length - 1;
    details.splice(1);
    details[0] = {
      ...details[0],
      message: `${details[0].message} (and ${more} more error${more > 1 ? 's' : ''})`,
    };
  }
  const lines = source.replace(/\s+$/, '').split('\n').length;
  return byPath(details).map((e) =>
    // Past the template's end is what we appended (`context: _`): an unclosed brace, say.
    toRenderError(definition, { ...e, line: e.line && Math.min(e.line, lines) }, source),
  );
}

/**
 * One error per field path: CUE lists a failed disjunction as its count followed by
 * each alternative's conflict; together they say why nothing matched.
 */
function byPath(errors: readonly Cue14Error[]): Cue14Error[] {
  const grouped = new Map<string, Cue14Error>();
  errors.forEach((e, i) => {
    const key = e.path || `\u0000${i}`;
    const seen = grouped.get(key);
    if (!seen) grouped.set(key, { ...e, message: cleanCueMessage(e.message) });
    else {
      seen.message = `${seen.message}; ${cleanCueMessage(e.message)}`;
      seen.line ??= e.line;
    }
  });
  return [...grouped.values()];
}

/** One error of `byPath` (its message already cleaned). */
function toRenderError(definition: string, e: Cue14Error, source: string): RenderError {
  const message = e.message;
  const missing = missingContextKey(message, source);
  if (missing) {
    const at = atLine(definition, e.line ?? contextKeyLine(source, missing));
    return new RenderError(`${at}: ${missingContextKeyError(missing)}`, {}, 'definition');
  }
  const segments = e.segments ?? (e.path ? e.path.split('.') : []);
  if (segments[0] === 'parameter' && segments.length > 1) {
    const path = propertiesPath(segments.slice(1));
    if (USER_CONFLICT.test(message)) return new RenderError(message, { path }, 'user');
    if (/incomplete value/.test(message)) return new RenderError(requiredMessage(message), { path }, 'user');
  }
  const field = e.path ? `${e.path}: ` : '';
  return new RenderError(`${atLine(definition, e.line)}: ${field}${message}`, {}, 'definition');
}

/**
 * The issues of a CUE vet: CUE's errors (worded as the schema words them where it
 * finds a problem at the same path), then the fields the schema does not name, as
 * warnings (errors when `strict`). The schema never adds an error CUE did not find.
 */
export function cueIssues(
  vet: Cue14Vet,
  schema: ParameterSchema | undefined,
  properties: Record<string, unknown>,
  strict: boolean,
): ParamIssue[] {
  const issues: ParamIssue[] = [];
  if (!vet.valid) {
    const plainer = new Map<string, string>();
    if (schema) {
      for (const i of validateProperties(schema, properties).issues)
        if (i.severity === 'error' && !plainer.has(i.path)) plainer.set(i.path, i.message);
    }
    for (const e of byPath(vet.errors)) {
      const segments = e.segments ?? (e.path ? e.path.split('.') : []);
      const path = propertiesPath(segments[0] === 'parameter' ? segments.slice(1) : segments, properties);
      // "required (expected string)" says more than any schema would.
      const text = /incomplete value/.test(e.message)
        ? requiredMessage(e.message)
        : (plainer.get(path) ?? e.message);
      issues.push({ path, message: text, severity: 'error' });
    }
  }
  if (schema) issues.push(...unknownFields(schema, properties, strict));
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.severity}\u0000${i.path}\u0000${i.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

function requiredMessage(message: string): string {
  const expected =
    /incomplete value (.*?)(?: \(no concrete value was given\))?(?: \(and \d+ more errors?\))?$/.exec(
      message,
    )?.[1];
  return `required${expected ? ` (expected ${expected})` : ''}`;
}

/**
 * CUE selectors (`ports`, `0`, `"app.oam.dev/name"`) as a properties path
 * (`properties.ports[0]`, `properties.labels["app.oam.dev/name"]`); an index
 * is told from a map key "0" by the data itself where it is given.
 */
function propertiesPath(segments: readonly string[], data?: unknown): string {
  let path = ROOT;
  let node = data;
  for (const raw of segments) {
    const key = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
    const index = /^\d+$/.test(key) && (data === undefined || Array.isArray(node));
    path = childPath(path, index ? Number(key) : key);
    node =
      node !== null && typeof node === 'object'
        ? (node as Record<string, unknown>)[index && Array.isArray(node) ? Number(key) : key]
        : undefined;
  }
  return path;
}

/** `ComponentDefinition "x", template line 4`. */
function atLine(definition: string, line: number | undefined): string {
  return line ? `${definition}, template line ${line}` : definition;
}

/** The context key an "undefined field" error is about, when the template reads it and we do not provide it. */
function missingContextKey(message: string, source: string): string | undefined {
  const key = /undefined field:? "?([\w$#-]+)"?/.exec(message)?.[1];
  if (!key || CONTEXT_KEYS.includes(key)) return undefined;
  return contextRead(key).test(source) ? key : undefined;
}

/** The first line reading `context.<key>`. */
function contextKeyLine(source: string, key: string): number | undefined {
  const at = source.search(contextRead(key));
  return at === -1 ? undefined : source.slice(0, at).split('\n').length;
}

/** `context.<key>` or `context["<key>"]` in CUE source. */
function contextRead(key: string): RegExp {
  const k = key.replace(/[$]/g, '\\$&');
  return new RegExp(`\\bcontext(\\.${k}(?![\\w$])|\\["${k}"\\])`);
}
