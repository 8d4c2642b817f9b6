/**
 * One problem with a component's or trait's properties. `path` starts at
 * `properties` (`properties.ports[0].port`); `message` says what was expected
 * and what was found, without the path: the caller puts the two together,
 * `properties.port: expected integer, got "eighty"`.
 */
export interface ParamIssue {
  path: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface ValidateOptions {
  /** Unknown fields are errors instead of warnings. */
  strict?: boolean;
  /** Fill in the schema's `default`s (on a copy; the input is never changed). */
  applyDefaults?: boolean;
}

export interface ValidationResult {
  /** The properties, with defaults applied when asked. */
  value: Record<string, unknown>;
  issues: ParamIssue[];
}
