import { isDeepStrictEqual } from 'node:util';
import type { RenderBudget } from './budget.js';
import { MAX_INDENT, yamlBlock, yamlFlow } from './yaml-values.js';

/** Where a helper call sits in the template (Handlebars passes it as `options.loc`). */
export interface TemplateLocation {
  start: { line: number; column: number };
}

export interface HelperOptions {
  hash: Record<string, unknown>;
  loc?: TemplateLocation;
  name?: string;
}

/** A helper called the wrong way; carries the call's place in the template. */
export class HelperError extends Error {
  constructor(
    message: string,
    readonly loc: TemplateLocation | undefined,
  ) {
    super(message);
    this.name = 'HelperError';
  }
}

/** Text a helper produced that is inserted as is (the insertion step does not quote it again). */
export type Verbatim = { toString(): string };

type Helper = (...args: unknown[]) => unknown;

/** The helpers templates may call, by name; `makeVerbatim` wraps text that is already YAML. */
export function templateHelpers(budget: () => RenderBudget, makeVerbatim: (text: string) => Verbatim) {
  const helper =
    (
      name: string,
      arity: { min: number; max?: number },
      body: (args: unknown[], options: HelperOptions) => unknown,
    ) =>
    (...all: unknown[]): unknown => {
      budget().check();
      const options = all[all.length - 1] as HelperOptions;
      const args = all.slice(0, -1);
      const max = arity.max ?? Infinity;
      if (args.length < arity.min || args.length > max) {
        const wanted =
          arity.min === max
            ? `${arity.min}`
            : max === Infinity
              ? `at least ${arity.min}`
              : `${arity.min} to ${max}`;
        throw new HelperError(`{{${name}}} takes ${wanted} value(s), got ${args.length}`, options.loc);
      }
      return body(args, options);
    };
  const compare = (name: string, test: (a: number | string, b: number | string) => boolean) =>
    helper(name, { min: 2, max: 2 }, ([a, b], options) => {
      const comparable =
        (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
      if (!comparable)
        throw new HelperError(
          `(${name}) compares two numbers or two strings, got ${kind(a)} and ${kind(b)}`,
          options.loc,
        );
      return test(a as number | string, b as number | string);
    });

  const helpers: Record<string, Helper> = {
    json: helper('json', { min: 1, max: 1 }, ([value]) => makeVerbatim(yamlFlow(value))),
    yaml: helper('yaml', { min: 1, max: 1 }, ([value], options) => {
      const indent = options.hash.indent ?? 0;
      if (typeof indent !== 'number' || !Number.isInteger(indent) || indent < 0 || indent > MAX_INDENT)
        throw new HelperError(`{{yaml}}: indent must be a whole number from 0 to ${MAX_INDENT}`, options.loc);
      return makeVerbatim(yamlBlock(value, indent));
    }),
    concat: helper('concat', { min: 1 }, (parts) => parts.map(textOf).join('')),
    default: helper('default', { min: 2, max: 2 }, ([value, fallback]) =>
      value === undefined || value === null || value === '' ? fallback : value,
    ),
    eq: helper('eq', { min: 2, max: 2 }, ([a, b]) => isDeepStrictEqual(a, b)),
    ne: helper('ne', { min: 2, max: 2 }, ([a, b]) => !isDeepStrictEqual(a, b)),
    and: helper('and', { min: 1 }, (values) => values.every(truthy)),
    or: helper('or', { min: 1 }, (values) => values.some(truthy)),
    not: helper('not', { min: 1, max: 1 }, ([value]) => !truthy(value)),
    gt: compare('gt', (a, b) => a > b),
    lt: compare('lt', (a, b) => a < b),
  };
  return helpers;
}

/** Truth as `{{#if}}` sees it: empty lists, empty strings, 0, null and false are false. */
function truthy(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object' && !isVerbatim(value)) return JSON.stringify(value);
  return String(value);
}

function isVerbatim(value: object): boolean {
  return typeof (value as { toHTML?: unknown }).toHTML === 'function';
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a map' : `${typeof value} ${JSON.stringify(value)}`;
}
