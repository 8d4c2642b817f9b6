/**
 * Field-level validation errors in the exact shape kube-apiserver reports them
 * (k8s.io/apimachinery/pkg/util/validation/field): `reason` is the cause type,
 * `message` is `ErrorBody()` (what a Status cause carries), `field` the path.
 */
export interface FieldCause {
  field: string;
  message: string;
  reason: string;
}

/** Go's `%#v`-like rendering, used where kube prints a non-scalar bad value. */
export function goRepr(value: unknown, stringMap = false): string {
  if (value === null || value === undefined) return 'interface {}(nil)';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[]interface {}{${value.map((v) => goRepr(v)).join(', ')}}`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  const head = stringMap ? 'map[string]string' : 'map[string]interface {}';
  return `${head}{${entries.map(([k, v]) => `${JSON.stringify(k)}:${goRepr(v)}`).join(', ')}}`;
}

/** How `ErrorBody()` prints a bad value: scalars plainly, strings quoted, nil as "null". */
export function badValue(value: unknown): string {
  if (value === null || value === undefined) return '"null"';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return goRepr(value);
}

function body(head: string, detail?: string): string {
  return detail ? `${head}: ${detail}` : head;
}

export function invalid(field: string, value: unknown, detail: string): FieldCause {
  return { field, reason: 'FieldValueInvalid', message: body(`Invalid value: ${badValue(value)}`, detail) };
}

/** Like `invalid`, with the value already rendered (Go struct dumps, string maps). */
export function invalidRendered(field: string, rendered: string, detail: string): FieldCause {
  return { field, reason: 'FieldValueInvalid', message: body(`Invalid value: ${rendered}`, detail) };
}

export function typeInvalid(field: string, value: unknown, detail: string): FieldCause {
  return {
    field,
    reason: 'FieldValueTypeInvalid',
    message: body(`Invalid value: ${badValue(value)}`, detail),
  };
}

export function required(field: string, detail = ''): FieldCause {
  return { field, reason: 'FieldValueRequired', message: body('Required value', detail) };
}

export function notSupported(field: string, value: unknown, supported: readonly string[]): FieldCause {
  const detail = supported.length
    ? `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}`
    : '';
  return {
    field,
    reason: 'FieldValueNotSupported',
    message: body(`Unsupported value: ${badValue(value)}`, detail),
  };
}

export function duplicate(field: string, value: unknown): FieldCause {
  return duplicateRendered(field, badValue(value));
}

export function duplicateRendered(field: string, rendered: string): FieldCause {
  return { field, reason: 'FieldValueDuplicate', message: `Duplicate value: ${rendered}` };
}

export function notFound(field: string, value: unknown): FieldCause {
  return { field, reason: 'FieldValueNotFound', message: `Not found: ${badValue(value)}` };
}

export function forbidden(field: string, detail: string): FieldCause {
  return { field, reason: 'FieldValueForbidden', message: body('Forbidden', detail) };
}

/** `field.TooLong`: the value is never printed. */
export function tooLong(field: string, maxBytes: number): FieldCause {
  const unit = maxBytes === 1 ? 'byte' : 'bytes';
  return {
    field,
    reason: 'FieldValueTooLong',
    message: `Too long: may not be more than ${maxBytes} ${unit}`,
  };
}

/** `field.TooLongMaxLength`, what OpenAPI `maxLength` failures of custom resources use. */
export function tooLongMaxLength(field: string, maxLength: number): FieldCause {
  return { field, reason: 'FieldValueTooLong', message: `Too long: may not be longer than ${maxLength}` };
}

export function tooMany(field: string, actual: number, max: number): FieldCause {
  return {
    field,
    reason: 'FieldValueTooMany',
    message: `Too many: ${actual}: must have at most ${max} items`,
  };
}

/** Field paths as `field.Path` prints them: `.child`, `[index]`, `[map key]`. */
export const path = {
  child: (base: string, name: string): string => (base ? `${base}.${name}` : name),
  index: (base: string, i: number): string => `${base}[${i}]`,
  key: (base: string, key: string): string => `${base}[${key}]`,
};

/** Drops exact repeats, as `ErrorList.ToAggregate()` does. */
export function dedupe(causes: FieldCause[]): FieldCause[] {
  const seen = new Set<string>();
  return causes.filter((c) => {
    const id = `${c.field}\u0000${c.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * The top-level message of a 422 Invalid Status, as `errors.NewInvalid` builds it:
 * `Deployment.apps "web" is invalid: spec.x: Required value` (several causes in `[a, b]`).
 */
export function invalidStatusMessage(
  kind: string,
  group: string,
  name: string,
  causes: FieldCause[],
): string {
  const qualified = group ? `${kind}.${group}` : kind;
  const parts = dedupe(causes).map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const list = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return `${qualified} ${JSON.stringify(name)} is invalid: ${list}`;
}

/**
 * The 400 BadRequest message kube answers under fieldValidation=Strict. With the
 * target kind it is the full message (`Deployment in version "v1" cannot be handled
 * as a Deployment: strict decoding error: unknown field "spec.foo"`).
 */
export function strictDecodingMessage(
  unknownPaths: string[],
  target?: { kind: string; version: string },
): string {
  const detail = `strict decoding error: ${unknownPaths.map((p) => `unknown field ${JSON.stringify(p)}`).join(', ')}`;
  if (!target) return detail;
  return `${target.kind} in version ${JSON.stringify(target.version)} cannot be handled as a ${target.kind}: ${detail}`;
}

/** One `Warning` header value per unknown field under fieldValidation=Warn. */
export function unknownFieldWarning(path: string): string {
  return `unknown field ${JSON.stringify(path)}`;
}
