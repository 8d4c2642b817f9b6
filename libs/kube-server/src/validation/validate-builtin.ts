/** Schema + semantic validation and unknown-field detection for built-in kinds. */
import { type GroupVersionKind } from '#kube-core';
import { type BuiltinKind, findBuiltinKind } from '../resources/builtin.js';
import { unknownFieldsOfModel } from './builtin-unknown-fields.js';
import { type FieldCause, dedupe } from './field-errors.js';
import { type SchemaError, schemaErrorsToCauses } from './schema-errors.js';
import { type Obj, validateMetadataMaps } from './checks/meta-checks.js';

/** The record of a built-in kind (resources/kinds.ts); throws for a kind the server does not serve. */
function requireBuiltinKind(gvk: GroupVersionKind): BuiltinKind {
  const found = findBuiltinKind(gvk);
  if (!found) {
    const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
    throw new Error(`no built-in schema for kind ${gvk.kind} in ${apiVersion}`);
  }
  return found;
}

function isSchemaFailure(err: unknown): err is { errors: SchemaError[] } {
  return typeof err === 'object' && err !== null && Array.isArray((err as { errors?: unknown }).errors);
}

function schemaCauses(kind: BuiltinKind, obj: Obj): FieldCause[] {
  try {
    // Calling the prototype's validate on the object itself skips the model's deep copy.
    kind.schema.prototype.validate.call(obj);
    return [];
  } catch (err) {
    if (isSchemaFailure(err)) return schemaErrorsToCauses(err.errors, obj);
    throw new Error(`schema validation of ${kind.kind} crashed: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * All problems kube-apiserver would report for this built-in object ([] when valid),
 * except `metadata.name`/`generateName` (see validateObjectName) and the CRD-specific
 * rules of validateCrd.
 */
export function validateBuiltin(gvk: GroupVersionKind, obj: object): FieldCause[] {
  const kind = requireBuiltinKind(gvk);
  const apiVersion = gvk.group ? `${gvk.group}/${gvk.version}` : gvk.version;
  // The URL decides apiVersion/kind; the body may leave them out.
  const typed: Obj = { ...(obj as Obj), apiVersion, kind: gvk.kind };
  const semantic = [...validateMetadataMaps(typed.metadata), ...(kind.checks?.(typed) ?? [])];
  // When both the schema and kube's own rules require a field, kube reports it once, with its detail.
  const requiredBySemantics = new Set(
    semantic.filter((c) => c.reason === 'FieldValueRequired').map((c) => c.field),
  );
  const schema = schemaCauses(kind, typed).filter(
    (c) => c.reason !== 'FieldValueRequired' || !requiredBySemantics.has(c.field),
  );
  return dedupe([...schema, ...semantic]);
}

/** Fields the kind's schema does not define, as `spec.foo` / `spec.containers[0].bar`. */
export function unknownFields(gvk: GroupVersionKind, obj: object): string[] {
  return unknownFieldsOfModel(requireBuiltinKind(gvk).model, obj);
}
