import type { ParameterSchema } from '../engines/engine.js';
import { ajvIssues } from './ajv-messages.js';
import { compiledValidator } from './compile-schema.js';
import type { ParamIssue, ValidateOptions, ValidationResult } from './types.js';
import { unknownFields } from './unknown-fields.js';

/**
 * Checks a component's or trait's properties against its definition's
 * parameter schema, for both engines. Reports every problem at once (errors,
 * and unknown fields as warnings unless `strict`); with `applyDefaults` the
 * returned value carries the schema's defaults.
 */
export function validateProperties(
  schema: ParameterSchema,
  properties: Record<string, unknown> | undefined,
  options: ValidateOptions = {},
): ValidationResult {
  const applyDefaults = options.applyDefaults ?? false;
  const input = properties ?? {};
  // ajv writes defaults into the data it validates: give it a copy, never the caller's object.
  const value = applyDefaults ? structuredClone(input) : input;
  const validate = compiledValidator(schema, applyDefaults);
  const issues = validate(value) ? [] : ajvIssues(validate.errors ?? [], value);
  issues.push(...unknownFields(schema, value, options.strict ?? false));
  return { value, issues: unique(issues) };
}

function unique(issues: readonly ParamIssue[]): ParamIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.severity}\u0000${i.path}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
