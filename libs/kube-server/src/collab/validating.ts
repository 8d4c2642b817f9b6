/**
 * The server's view of the validation module (src/validation): which checks
 * apply to which resource. Kinds the module does not model (e.g. Endpoints,
 * IngressClass) are stored after name validation only.
 */
import {
  compileCrdSchemas,
  findBuiltinKind,
  unknownFields,
  validateBuiltin as validateBuiltinKind,
  validateCrd,
  validateObjectName,
  type CrdVersionSchemas,
  type CustomResourceSchema,
  type FieldCause,
  type GroupVersionKind,
} from '../validation/index.js';

export { compileCrdSchemas, validateCrd, validateObjectName };
export type { CrdVersionSchemas, FieldCause };
export type CrdVersionSchema = CustomResourceSchema;

export function validateBuiltin(gvk: GroupVersionKind, obj: object): FieldCause[] {
  return findBuiltinKind(gvk) ? validateBuiltinKind(gvk, obj) : [];
}

export function builtinUnknownFields(gvk: GroupVersionKind, obj: object): string[] {
  return findBuiltinKind(gvk) ? unknownFields(gvk, obj) : [];
}
