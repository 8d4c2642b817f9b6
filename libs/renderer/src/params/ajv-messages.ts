import type { ErrorObject } from 'ajv';
import { nearest } from './nearest.js';
import { describeValue } from '../parse/field-path.js';
import { childPath, pointerToPath } from './property-path.js';
import type { ParamIssue } from './types.js';

type Issue = Omit<ParamIssue, 'severity'>;

/**
 * ajv's errors in the project's words: `properties.port: expected integer,
 * got "eighty"`. The alternatives of an anyOf/oneOf are folded into one
 * message at the place they apply, instead of one raw error per alternative.
 */
export function ajvIssues(errors: readonly ErrorObject[], data: unknown): ParamIssue[] {
  return describeErrors(errors, data).map((i) => ({ ...i, severity: 'error' }));
}

function describeErrors(errors: readonly ErrorObject[], data: unknown): Issue[] {
  const combinators = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  const consumed = new Set<ErrorObject>();
  const issues: Issue[] = [];
  for (const combinator of combinators) {
    if (consumed.has(combinator)) continue;
    const prefix = `${combinator.schemaPath}/`;
    const branches = errors.filter((e) => e.schemaPath.startsWith(prefix));
    branches.forEach((e) => consumed.add(e));
    consumed.add(combinator);
    issues.push(describeCombinator(combinator, branches, data));
  }
  // A value of the wrong type fails other rules too (`format: int64` on "eighty"): the type says it all.
  const wrongType = new Set(
    errors.filter((e) => !consumed.has(e) && e.keyword === 'type').map((e) => e.instancePath),
  );
  for (const e of errors) {
    if (consumed.has(e) || e.keyword === 'if') continue;
    if (e.keyword !== 'type' && wrongType.has(e.instancePath)) continue;
    if (e.keyword === 'propertyNames' && errors.some((inner) => inner.propertyName === e.params.propertyName))
      continue;
    issues.push(describeError(e, data));
  }
  return issues;
}

function describeError(e: ErrorObject, data: unknown): Issue {
  const path = pointerToPath(e.instancePath, data);
  const p = e.params as Record<string, unknown>;
  const got = `got ${describeValue(e.data)}`;
  if (e.propertyName !== undefined) {
    const inner = describeError({ ...e, propertyName: undefined }, data);
    return { path: childPath(path, e.propertyName), message: `invalid field name: ${inner.message}` };
  }
  switch (e.keyword) {
    case 'type':
      return { path, message: `expected ${typeList(p.type)}, ${got}` };
    case 'required':
      return { path: childPath(path, String(p.missingProperty)), message: 'required' };
    case 'dependentRequired':
    case 'dependencies':
      return {
        path: childPath(path, String(p.missingProperty)),
        message: `required when "${String(p.property)}" is set`,
      };
    case 'enum':
      return {
        path,
        message: `expected one of ${(p.allowedValues as unknown[]).map(literal).join(', ')}, ${got}`,
      };
    case 'const':
      return { path, message: `expected ${literal(p.allowedValue)}, ${got}` };
    case 'minimum':
      return { path, message: `expected at least ${String(p.limit)}, ${got}` };
    case 'maximum':
      return { path, message: `expected at most ${String(p.limit)}, ${got}` };
    case 'exclusiveMinimum':
      return { path, message: `expected more than ${String(p.limit)}, ${got}` };
    case 'exclusiveMaximum':
      return { path, message: `expected less than ${String(p.limit)}, ${got}` };
    case 'multipleOf':
      return { path, message: `expected a multiple of ${String(p.multipleOf)}, ${got}` };
    case 'minLength':
      return { path, message: `expected at least ${plural(p.limit, 'character')}, ${got}` };
    case 'maxLength':
      return { path, message: `expected at most ${plural(p.limit, 'character')}, got ${lengthOf(e.data)}` };
    case 'pattern':
      return { path, message: `expected a string matching ${String(p.pattern)}, ${got}` };
    case 'format':
      return { path, message: `expected a valid ${String(p.format)}, ${got}` };
    case 'minItems':
      return { path, message: `expected at least ${plural(p.limit, 'item')}, got ${lengthOf(e.data)}` };
    case 'maxItems':
      return { path, message: `expected at most ${plural(p.limit, 'item')}, got ${lengthOf(e.data)}` };
    case 'minProperties':
      return { path, message: `expected at least ${plural(p.limit, 'field')}, got ${sizeOf(e.data)}` };
    case 'maxProperties':
      return { path, message: `expected at most ${plural(p.limit, 'field')}, got ${sizeOf(e.data)}` };
    case 'uniqueItems':
      return { path, message: `expected unique items, but [${String(p.j)}] and [${String(p.i)}] are equal` };
    case 'additionalProperties':
    case 'unevaluatedProperties': {
      const field = String(p.additionalProperty ?? p.unevaluatedProperty);
      const known = Object.keys((e.parentSchema?.properties as object | undefined) ?? {});
      return { path: childPath(path, field), message: unknownFieldMessage(field, known) };
    }
    case 'propertyNames':
      return { path: childPath(path, String(p.propertyName)), message: 'invalid field name' };
    case 'not':
      return { path, message: `matches a form that is not allowed, ${got}` };
    case 'contains':
      return { path, message: 'expected at least one item of the required form' };
    case 'false schema':
      return { path, message: 'not allowed here' };
    default:
      return { path, message: `fails the schema's "${e.keyword}" rule, ${got}` };
  }
}

function describeCombinator(
  combinator: ErrorObject,
  branchErrors: readonly ErrorObject[],
  data: unknown,
): Issue {
  const path = pointerToPath(combinator.instancePath, data);
  const got = `got ${describeValue(combinator.data)}`;
  const passing = (combinator.params as { passingSchemas?: number[] | null }).passingSchemas;
  if (combinator.keyword === 'oneOf' && Array.isArray(passing)) {
    return {
      path,
      message: `expected exactly one allowed form to match, but forms ${passing.join(' and ')} all match`,
    };
  }
  const branches = groupByBranch(combinator.schemaPath, branchErrors);
  const here = branches.every((b) => b.every((e) => e.instancePath === combinator.instancePath));
  const only = (keyword: string) =>
    here && branches.every((b) => b.length > 0 && b.every((e) => e.keyword === keyword));
  if (only('type')) {
    const types = branches.flatMap((b) => b.map((e) => typeList(e.params.type)));
    return { path, message: `expected ${[...new Set(types)].join(' or ')}, ${got}` };
  }
  if (only('required')) {
    const alternatives = branches.map((b) => b.map((e) => String(e.params.missingProperty)).join(' and '));
    return { path, message: `expected one of ${alternatives.join(', ')} to be set` };
  }
  if (
    here &&
    branches.every((b) => b.length > 0 && b.every((e) => e.keyword === 'enum' || e.keyword === 'const'))
  ) {
    const allowed = branches.flatMap((b) =>
      b.flatMap((e) =>
        e.keyword === 'enum' ? (e.params.allowedValues as unknown[]) : [e.params.allowedValue],
      ),
    );
    return { path, message: `expected one of ${[...new Set(allowed.map(literal))].join(', ')}, ${got}` };
  }
  const forms = branches.map((b) =>
    describeErrors(b, data)
      .slice(0, 2)
      .map((i) => (i.path === path ? i.message : `${i.path}: ${i.message}`))
      .join(', '),
  );
  return { path, message: `does not match any allowed form: ${forms.filter(Boolean).join('; or ')}` };
}

/** The errors of each alternative, by its index under `<combinator schemaPath>/<n>/...`. */
function groupByBranch(combinatorPath: string, errors: readonly ErrorObject[]): ErrorObject[][] {
  const groups = new Map<number, ErrorObject[]>();
  for (const e of errors) {
    const index = Number(e.schemaPath.slice(combinatorPath.length + 1).split('/')[0]);
    groups.set(index, [...(groups.get(index) ?? []), e]);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, list]) => list);
}

export function unknownFieldMessage(field: string, known: readonly string[]): string {
  const guess = nearest(field, known);
  if (guess) return `unknown field (did you mean "${guess}"?)`;
  if (known.length === 0) return 'unknown field (this definition takes no parameters here)';
  return known.length <= 12 ? `unknown field; known fields: ${known.join(', ')}` : 'unknown field';
}

function typeList(type: unknown): string {
  const types = Array.isArray(type) ? type : String(type).split(',');
  return types.join(' or ');
}

/** Enum members as the spec writes them: strings bare, anything else as JSON. */
function literal(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function plural(n: unknown, noun: string): string {
  return `${String(n)} ${noun}${n === 1 ? '' : 's'}`;
}

function lengthOf(value: unknown): number {
  return typeof value === 'string' || Array.isArray(value) ? value.length : 0;
}

function sizeOf(value: unknown): number {
  return value !== null && typeof value === 'object' ? Object.keys(value).length : 0;
}
