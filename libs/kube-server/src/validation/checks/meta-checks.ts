/** Labels, annotations and label selectors, checked as apimachinery's meta/v1 validation does. */
import { type FieldCause, forbidden, invalid, required, tooLong } from '../field-errors.js';
import { isQualifiedName, isValidLabelValue } from '../syntax.js';

export type Obj = Record<string, unknown>;

export const asObj = (value: unknown): Obj =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};

export const asList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** ValidateLabels: every problem is reported on the map's own path, with the bad key or value. */
export function validateLabels(labels: unknown, field: string): FieldCause[] {
  const causes: FieldCause[] = [];
  for (const [key, value] of Object.entries(asObj(labels))) {
    for (const msg of isQualifiedName(key)) causes.push(invalid(field, key, msg));
    if (typeof value === 'string') {
      for (const msg of isValidLabelValue(value)) causes.push(invalid(field, value, msg));
    }
  }
  return causes;
}

export function validateAnnotations(annotations: unknown, field: string): FieldCause[] {
  const causes: FieldCause[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(asObj(annotations))) {
    for (const msg of isQualifiedName(key.toLowerCase())) causes.push(invalid(field, key, msg));
    size += key.length + (typeof value === 'string' ? value.length : 0);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) causes.push(tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return causes;
}

/** The metadata checks every kind gets besides its name (labels and annotations). */
export function validateMetadataMaps(metadata: unknown, base = 'metadata'): FieldCause[] {
  const meta = asObj(metadata);
  return [
    ...validateLabels(meta.labels, `${base}.labels`),
    ...validateAnnotations(meta.annotations, `${base}.annotations`),
  ];
}

const SET_OPERATORS = new Set(['In', 'NotIn']);
const EXISTENCE_OPERATORS = new Set(['Exists', 'DoesNotExist']);

/** ValidateLabelSelector. */
export function validateLabelSelector(selector: unknown, field: string): FieldCause[] {
  const sel = asObj(selector);
  const causes: FieldCause[] = [];
  asList(sel.matchExpressions).forEach((raw, i) => {
    const expr = asObj(raw);
    const at = `${field}.matchExpressions[${i}]`;
    const values = asList(expr.values);
    if (SET_OPERATORS.has(expr.operator as string)) {
      if (values.length === 0) {
        causes.push(required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      }
    } else if (EXISTENCE_OPERATORS.has(expr.operator as string)) {
      if (values.length > 0) {
        causes.push(
          forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
      }
    } else {
      causes.push(invalid(`${at}.operator`, expr.operator ?? '', 'not a valid selector operator'));
    }
    if (typeof expr.key === 'string') {
      for (const msg of isQualifiedName(expr.key)) causes.push(invalid(`${at}.key`, expr.key, msg));
    }
  });
  causes.push(...validateLabels(sel.matchLabels, `${field}.matchLabels`));
  return causes;
}

export function isEmptySelector(selector: unknown): boolean {
  const sel = asObj(selector);
  return Object.keys(asObj(sel.matchLabels)).length === 0 && asList(sel.matchExpressions).length === 0;
}

/** `must be greater than or equal to 0` for optional non-negative integers. */
export function nonNegative(value: unknown, field: string): FieldCause[] {
  return typeof value === 'number' && value < 0
    ? [invalid(field, value, 'must be greater than or equal to 0')]
    : [];
}
