import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { ParameterSchema } from '../engines/engine.js';
import { RenderError } from '../errors.js';
import { hashOf } from '#kube-core';
import { regExpEngine } from './regexp-engine.js';

// ajv and ajv-formats (CommonJS) load with the first schema validated (about 50 ms of CPU):
// a render whose CUE vet passes (`oam render` of valid input) never needs them.
const require = createRequire(import.meta.url);

/**
 * Definition authors write these schemas by hand (or CUE exports them), so
 * ajv's strict schema mode is off: unknown keywords such as `x-kubernetes-*`
 * or OpenAPI's `nullable` are ignored rather than refused.
 */
function newAjv(useDefaults: boolean): Ajv2020 {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    useDefaults,
    verbose: true,
    allowUnionTypes: true,
    unicodeRegExp: false,
    // Linear-time matching: a definition's pattern cannot stall the process (see regexp-engine.ts).
    code: { regExp: regExpEngine },
    // A library must not write to the console (`oam render` prints YAML on stdout); an unknown
    // `format` (Kubernetes' `quantity`, say) is simply not checked.
    logger: false,
  });
  addFormats(ajv);
  return ajv;
}

const engines: { withDefaults?: Ajv2020; plain?: Ajv2020 } = {};
const MAX_CACHED = 500;
/** Compiled validators by schema content; the WeakMap skips hashing for a schema object seen before. */
const byHash = new Map<string, ValidateFunction>();
const byIdentity = {
  withDefaults: new WeakMap<object, ValidateFunction>(),
  plain: new WeakMap<object, ValidateFunction>(),
};

/** The validator for `schema`, compiled once per schema content; an invalid schema is a definition error. */
export function compiledValidator(schema: ParameterSchema, applyDefaults: boolean): ValidateFunction {
  const mode = applyDefaults ? 'withDefaults' : 'plain';
  const known = byIdentity[mode].get(schema);
  if (known) return known;
  const key = `${mode}:${hashOf(schema)}`;
  let validate = byHash.get(key);
  if (!validate) {
    validate = compile((engines[mode] ??= newAjv(mode === 'withDefaults')), schema);
    if (byHash.size >= MAX_CACHED) byHash.delete(byHash.keys().next().value!);
    byHash.set(key, validate);
  }
  byIdentity[mode].set(schema, validate);
  return validate;
}

/**
 * Loads ajv and compiles its meta-schema now: the first schema a process validates costs about
 * 120 ms of main-thread CPU (measured in the controller, profiled), which a long-running process
 * pays at start-up rather than while it serves probes and holds its Lease.
 */
export function warmParameterValidation(): void {
  compiledValidator({ type: 'object' }, true);
  compiledValidator({ type: 'object' }, false);
}

function compile(ajv: Ajv2020, schema: ParameterSchema): ValidateFunction {
  try {
    return ajv.compile(schema);
  } catch (err) {
    // For the platform team, not end users: ajv's own wording, with its `data` renamed to what they wrote.
    const detail = (err as Error).message
      .replace(/^schema is invalid: /, '')
      .replace(/\bdata(?=[/ .])/g, 'parameters');
    throw new RenderError(`the parameter schema is not a valid JSON Schema: ${detail}`, {}, 'definition');
  }
}
