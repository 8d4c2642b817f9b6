/**
 * Turns ajv errors into the causes kube-apiserver reports for OpenAPI schema
 * failures (k8s.io/kube-openapi validation messages, as apiextensions-apiserver's
 * kubeOpenAPIResultToFieldErrors maps them): `spec.replicas: Invalid value:
 * "string": spec.replicas in body must be of type integer: "string"`.
 */
import {
  type FieldCause,
  invalid,
  notSupported,
  required,
  tooLongMaxLength,
  tooMany,
  typeInvalid,
} from './field-errors.js';

/** The subset of ajv's ErrorObject we read (kubernetes-models' precompiled validators emit the same). */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

const COMPOSITIONS = new Set(['oneOf', 'anyOf', 'not']);

function decodePointer(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** kube-openapi's path form: `.name` for fields and map keys, `[i]` for list items. */
function locate(root: unknown, pointer: string): { field: string; value: unknown } {
  let field = '';
  let value: unknown = root;
  for (const segment of decodePointer(pointer)) {
    if (Array.isArray(value)) {
      field += `[${segment}]`;
      value = value[Number(segment)];
    } else {
      field = field ? `${field}.${segment}` : segment;
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
    }
  }
  return { field, value };
}

/** The JSON type name kube-openapi reports for a decoded value. */
export function jsonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function enumValues(values: unknown[]): string[] {
  return values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

const QUANTITY_DETAIL =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** A failed oneOf over scalars: kube's int-or-string and resource.Quantity types. */
function compositionCause(
  err: SchemaError,
  siblings: SchemaError[],
  field: string,
  value: unknown,
): FieldCause {
  const isQuantity = siblings.some(
    (s) => (s.keyword === 'format' && s.params.format === 'quantity') || s.params.type === 'number',
  );
  if (isQuantity) return invalid(field, value, QUANTITY_DETAIL);
  const types = siblings.filter((s) => s.keyword === 'type').map((s) => s.params.type as string);
  if (types.length > 0) {
    const expected = [...new Set(types)].sort().join(',');
    const actual = jsonTypeName(value);
    return typeInvalid(field, actual, `${field} in body must be of type ${expected}: "${actual}"`);
  }
  const what = err.keyword === 'oneOf' ? 'one and only one schema (oneOf)' : 'at least one schema (anyOf)';
  const detail =
    err.keyword === 'not' ? `${field} must not validate the schema (not)` : `${field} must validate ${what}`;
  return invalid(field, value, detail);
}

function limitCause(err: SchemaError, field: string, value: unknown): FieldCause {
  const limit = err.params.limit as number;
  switch (err.keyword) {
    case 'maximum':
      return invalid(field, value, `${field} in body should be less than or equal to ${limit}`);
    case 'exclusiveMaximum':
      return invalid(field, value, `${field} in body should be less than ${limit}`);
    case 'minimum':
      return invalid(field, value, `${field} in body should be greater than or equal to ${limit}`);
    case 'exclusiveMinimum':
      return invalid(field, value, `${field} in body should be greater than ${limit}`);
    case 'minLength':
      return invalid(field, value, `${field} in body should be at least ${limit} chars long`);
    case 'maxLength':
      return tooLongMaxLength(field, limit);
    case 'minItems':
      return invalid(field, value, `${field} in body should have at least ${limit} items`);
    case 'maxItems':
      return tooMany(field, Array.isArray(value) ? value.length : -1, limit);
    case 'minProperties':
      return invalid(field, value, `${field} in body should have at least ${limit} properties`);
    case 'maxProperties':
      return tooMany(field, value && typeof value === 'object' ? Object.keys(value).length : -1, limit);
    default:
      return invalid(field, value, `${field} ${err.message ?? `failed ${err.keyword}`}`);
  }
}

function oneCause(err: SchemaError, field: string, value: unknown): FieldCause {
  switch (err.keyword) {
    case 'type': {
      const expected = Array.isArray(err.params.type) ? err.params.type.join(',') : String(err.params.type);
      const actual = jsonTypeName(value);
      return typeInvalid(field, actual, `${field} in body must be of type ${expected}: "${actual}"`);
    }
    case 'required':
      return required(field ? `${field}.${err.params.missingProperty}` : String(err.params.missingProperty));
    case 'enum':
      return notSupported(
        field,
        value,
        enumValues((err.params.allowedValues as unknown[] | undefined) ?? []),
      );
    case 'format':
      return typeInvalid(
        field,
        value,
        `${field} in body must be of type ${err.params.format}: ${JSON.stringify(value)}`,
      );
    case 'pattern':
      return invalid(field, value, `${field} in body should match '${err.params.pattern}'`);
    case 'multipleOf':
      return invalid(field, value, `${field} in body should be a multiple of ${err.params.multipleOf}`);
    case 'uniqueItems':
      return invalid(field, value, `${field} in body shouldn't contain duplicates`);
    default:
      return limitCause(err, field, value);
  }
}

/** Errors inside a failed oneOf/anyOf/not branch are reported once, by the composition. */
function outermost(errors: SchemaError[]): SchemaError[] {
  const compositions = errors.filter((e) => COMPOSITIONS.has(e.keyword));
  return errors.filter(
    (e) =>
      COMPOSITIONS.has(e.keyword) ||
      !compositions.some(
        (c) => e.schemaPath.startsWith(`${c.schemaPath}/`) || (e.instancePath === c.instancePath && c !== e),
      ),
  );
}

export function schemaErrorsToCauses(errors: readonly SchemaError[], root: unknown): FieldCause[] {
  const all = [...errors];
  return outermost(all).map((err) => {
    const { field, value } = locate(root, err.instancePath);
    if (COMPOSITIONS.has(err.keyword)) {
      const siblings = all.filter((s) => s.instancePath === err.instancePath && !COMPOSITIONS.has(s.keyword));
      return compositionCause(err, siblings, field, value);
    }
    return oneCause(err, field, value);
  });
}
