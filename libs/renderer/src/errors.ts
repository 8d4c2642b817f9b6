/**
 * Every error the renderer reports for bad input. `source` says whose fault
 * it is: the user's YAML, or a broken definition (a platform-team bug).
 * `format()` gives the one-line message the CLI prints, e.g.
 * `app.yaml:12: Application "shop", components[1] "api" (webservice): properties.port: expected integer, got "eighty"`.
 */
export interface ErrorLocation {
  file?: string;
  line?: number;
  column?: number;
  /** e.g. `Application "shop"` */
  object?: string;
  /** e.g. `components[1] "api" (webservice)` or `traits[0] (gateway)` */
  subject?: string;
  /** dotted field path, e.g. `properties.port` */
  path?: string;
}

/**
 * Whose fault: the user's input, a broken definition, or `timeout`: the evaluation hit one of
 * its limits (CPU time, memory, output, the wall-clock backstop).
 */
export type ErrorSource = 'user' | 'definition' | 'timeout';

export class RenderError extends Error {
  constructor(
    readonly detail: string,
    readonly location: ErrorLocation = {},
    readonly source: ErrorSource = 'user',
    /**
     * The evaluation passed its CPU-time or memory limit: the template's own doing (the limits
     * measure the template, not the machine), so the same inputs fail again and are not retried.
     */
    readonly limit?: 'cpu' | 'memory',
  ) {
    super(formatError(detail, location, source));
    this.name = 'RenderError';
  }

  /** A copy with more context filled in (inner layers know less than outer ones). */
  within(extra: ErrorLocation): RenderError {
    return new RenderError(this.detail, { ...extra, ...definedOnly(this.location) }, this.source, this.limit);
  }
}

/** An evaluation that passed its CPU-time or memory limit (alone or among others): never retried hot. */
export function isLimitHit(err: unknown): boolean {
  if (err instanceof RenderErrors) return err.errors.some((e) => e.limit !== undefined);
  return err instanceof RenderError && err.limit !== undefined;
}

/** Several errors at once: the renderer reports all it finds, not just the first. */
export class RenderErrors extends Error {
  constructor(readonly errors: RenderError[]) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'RenderErrors';
  }
}

export function formatError(detail: string, loc: ErrorLocation, source: ErrorSource = 'user'): string {
  const parts: string[] = [];
  if (loc.file) {
    parts.push(loc.line ? `${loc.file}:${loc.line}${loc.column ? `:${loc.column}` : ''}:` : `${loc.file}:`);
  }
  const where = [loc.object, loc.subject].filter(Boolean).join(', ');
  if (where) parts.push(`${where}:`);
  if (loc.path) parts.push(`${loc.path}:`);
  const prefix = source === 'definition' ? 'definition error: ' : '';
  parts.push(prefix + detail);
  return parts.join(' ');
}

function definedOnly(loc: ErrorLocation): ErrorLocation {
  return Object.fromEntries(Object.entries(loc).filter(([, v]) => v !== undefined)) as ErrorLocation;
}
