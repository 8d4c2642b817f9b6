/**
 * fast-check arbitraries from a parameter JSON Schema, for the differential
 * test against CUE: values the schema describes as valid, and near-misses
 * (one thing wrong: a type, a missing required field, an extra key, a value
 * outside an enum, a range or a pattern). Covers the keywords our schemas use;
 * an unknown shape yields "anything".
 */
import fc from 'fast-check';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated JSON Schemas of any shape, built up key by key
type Schema = Record<string, any>;

const MAX_DEPTH = 5;
const EXTRA_KEY = 'zzExtra';

const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -5, max: 100 }),
  fc.boolean(),
  fc.dictionary(fc.constantFrom('a', 'b'), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
);

/** The first type a schema names (`["string", "null"]` → each in turn via `types`). */
function types(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.additionalProperties !== undefined || schema.required) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/** `schema` without its `anyOf`/`oneOf`, merged into each alternative. */
function alternatives(schema: Schema): Schema[] | undefined {
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (!Array.isArray(branches) || branches.length === 0) return undefined;
  const { anyOf: _a, oneOf: _o, not: _n, ...rest } = schema;
  return branches.map((b) => ({ ...rest, ...b }));
}

function allOfMerged(schema: Schema): Schema {
  if (!Array.isArray(schema.allOf)) return schema;
  const { allOf, ...rest } = schema;
  return (allOf as Schema[]).reduce<Schema>(
    (acc, part) => ({
      ...acc,
      ...part,
      properties: { ...acc.properties, ...part.properties },
      required: [...(acc.required ?? []), ...(part.required ?? [])],
    }),
    rest,
  );
}

function patternString(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern)).filter((s) => s.length <= 80);
  } catch {
    return fc.string({ maxLength: 8 });
  }
}

function stringArb(schema: Schema): fc.Arbitrary<string> {
  if (typeof schema.pattern === 'string') return patternString(schema.pattern);
  return fc.oneof(
    fc.constantFrom('nginx', 'a', 'x-1', '80', '1Gi', ''),
    fc.string({ minLength: schema.minLength ?? 0, maxLength: 8 }),
  );
}

function numberArb(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const hi =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  const min = Math.ceil(lo ?? -10);
  const max = Math.floor(hi ?? Math.max(min + 100, 100));
  const ints = fc.integer({ min, max: Math.max(min, max) });
  if (integer) return ints;
  return fc.oneof(
    ints,
    fc.constantFrom(min + 0.5).filter((x) => x <= max),
  );
}

/** Values `schema` describes as valid. */
export function validValue(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  schema = allOfMerged(schema);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alts = alternatives(schema);
  if (alts) return fc.oneof(...alts.map((a) => validValue(a, depth)));
  const ts = types(schema);
  if (ts.length === 0) return depth > MAX_DEPTH ? fc.constant('x') : anything;
  return fc.oneof(...ts.map((t) => validOfType(schema, t, depth)));
}

function validOfType(schema: Schema, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArb(schema);
    case 'integer':
      return numberArb(schema, true);
    case 'number':
      return numberArb(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? validValue(schema.items, depth + 1) : anything, {
        maxLength: depth > MAX_DEPTH ? 0 : 2,
      });
    default:
      return objectArb(schema, depth);
  }
}

function objectArb(schema: Schema, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>((schema.required ?? []) as string[]);
  const shallow = depth > MAX_DEPTH;
  const names = Object.keys(props).filter((k) => !shallow || required.has(k));
  const record = fc.record(Object.fromEntries(names.map((k) => [k, validValue(props[k], depth + 1)])), {
    requiredKeys: names.filter((k) => required.has(k)),
  });
  let extra = schema.additionalProperties;
  // A struct the schema says nothing about (`{}`, an open disjunct): any keys go.
  if (extra === undefined && names.length === 0) extra = {};
  if (typeof extra !== 'object' || extra === null || shallow) return record;
  const more = fc.dictionary(
    fc.constantFrom('k1', 'LOG_LEVEL', 'app.oam.dev/x'),
    validValue(extra as Schema, depth + 1),
    { maxKeys: 2 },
  );
  return fc.tuple(record, more).map(([r, m]) => ({ ...m, ...r }));
}

/** A value of a different JSON type than any `schema` allows (a string where an int goes). */
function wrongType(schema: Schema): fc.Arbitrary<unknown> | undefined {
  const ts = new Set(types(schema));
  if (ts.size === 0) return undefined;
  const candidates: [string, unknown][] = [
    ['string', 'zz'],
    ['integer', 7],
    ['boolean', true],
    ['object', { a: 'b' }],
    ['array', ['x']],
    ['null', null],
  ];
  const wrong = candidates
    .filter(([t]) => !ts.has(t) && !(t === 'integer' && ts.has('number')))
    .map(([, v]) => v);
  return wrong.length > 0 ? fc.constantFrom(...wrong) : undefined;
}

/** Values one mistake away from `schema`'s valid ones. */
export function nearMiss(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  schema = allOfMerged(schema);
  const alts = alternatives(schema);
  if (alts) return fc.oneof(...alts.map((a) => nearMiss(a, depth)));
  const options: fc.Arbitrary<unknown>[] = [];
  const wrong = wrongType(schema);
  if (wrong) options.push(wrong);
  if (Array.isArray(schema.enum)) {
    const stringy = schema.enum.every((e: unknown) => typeof e === 'string');
    options.push(fc.constant(stringy ? 'NotInEnum' : 12345));
  }
  if (typeof schema.pattern === 'string') options.push(fc.constantFrom('!! not matching !!', ''));
  if (typeof schema.minimum === 'number') options.push(fc.constant(schema.minimum - 1));
  if (typeof schema.maximum === 'number') options.push(fc.constant(schema.maximum + 1));
  const ts = types(schema);
  if (ts.includes('object') && depth <= MAX_DEPTH) options.push(...objectNearMisses(schema, depth));
  if (ts.includes('array') && schema.items && depth <= MAX_DEPTH) {
    const item = schema.items as Schema;
    options.push(
      fc
        .tuple(fc.array(validValue(item, depth + 1), { maxLength: 1 }), nearMiss(item, depth + 1))
        .map(([ok, bad]) => [...ok, bad]),
    );
  }
  return options.length > 0 ? fc.oneof(...options) : validValue(schema, depth);
}

function objectNearMisses(schema: Schema, depth: number): fc.Arbitrary<unknown>[] {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = (schema.required ?? []) as string[];
  const base = objectArb(schema, depth);
  const out: fc.Arbitrary<unknown>[] = [base.map((o) => ({ ...o, [EXTRA_KEY]: 'surplus' }))];
  if (required.length > 0) {
    out.push(
      fc.tuple(base, fc.constantFrom(...required)).map(([o, key]) => {
        const { [key]: _dropped, ...rest } = o;
        return rest;
      }),
    );
  }
  const names = Object.keys(props);
  if (names.length > 0) {
    out.push(
      fc
        .constantFrom(...names)
        .chain((key) =>
          fc.tuple(base, nearMiss(props[key], depth + 1)).map(([o, bad]) => ({ ...o, [key]: bad })),
        ),
    );
  }
  return out;
}
