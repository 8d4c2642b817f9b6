/** Parameter validation for both template engines: JSON Schema via ajv, messages people can act on. */
export { validateProperties } from './validate.js';
export { nearest } from './nearest.js';
export type { ParamIssue, ValidateOptions, ValidationResult } from './types.js';
