/**
 * Object validation for the embedded API server: names, built-in kinds, unknown
 * fields, and CustomResourceDefinitions with their structural schemas. Pure
 * functions; inputs are never mutated.
 */
export type { FieldCause } from './field-errors.js';
export { invalidStatusMessage, strictDecodingMessage, unknownFieldWarning } from './field-errors.js';
export { type ResourceIdentity, validateObjectName } from './object-name.js';
export { validateBuiltin, unknownFields } from './validate-builtin.js';
export { BUILTIN_KINDS, findBuiltinKind } from '../resources/builtin.js';
export { type CrdVersionSchemas, type CustomResourceSchema, compileCrdSchemas } from './crd/compile.js';
export { validateCrd } from './crd/validate-crd.js';
export { validateUpdate } from './checks/update-checks.js';
