import { Validator, type Schema } from '@cfworker/json-schema';
import type { RJSFSchema, ValidationData, ValidatorType } from '@rjsf/utils';

/**
 * The form's validator, for react-jsonschema-form: an interpreting JSON
 * Schema validator (@cfworker/json-schema), so the page's CSP needs no
 * 'unsafe-eval' (ajv, rjsf's default, compiles schemas into functions).
 *
 * rjsf asks it which anyOf/oneOf alternative a value matches (`isValid`);
 * the form itself reports no errors of its own: the API, which renders the
 * definition, judges the whole Application and its 422 errors are shown at
 * their fields (`extraErrors`).
 */
export const formValidator: ValidatorType = {
  validateFormData(): ValidationData<unknown> {
    return { errors: [], errorSchema: {} };
  },
  isValid(schema: RJSFSchema, formData: unknown, rootSchema: RJSFSchema): boolean {
    return validatorFor(schema, rootSchema).validate(formData).valid;
  },
  rawValidation<Result = unknown>(schema: RJSFSchema, formData?: unknown): { errors?: Result[] } {
    const { valid, errors } = validatorFor(schema, schema).validate(formData);
    return valid ? {} : { errors: errors as Result[] };
  },
};

/** Where the root schema is registered, so an alternative's `#/...` references resolve against it. */
const ROOT = 'urn:oam:form-root';

// One validator per (schema, root) pair: rjsf asks about the same alternatives on every keystroke.
const cache = new WeakMap<object, WeakMap<object, Validator>>();

function validatorFor(schema: RJSFSchema, rootSchema: RJSFSchema): Validator {
  let byRoot = cache.get(schema);
  if (!byRoot) cache.set(schema, (byRoot = new WeakMap()));
  let validator = byRoot.get(rootSchema);
  if (!validator) {
    // Copies (rootRefs copies too): the validator annotates the schemas it is given, and rjsf's stay as they are.
    validator = new Validator(rootRefs(schema) as Schema, '2020-12', true);
    validator.addSchema(structuredClone(rootSchema) as Schema, ROOT);
    byRoot.set(rootSchema, validator);
  }
  return validator;
}

/** `$ref: "#/..."` in an alternative means the root schema's `#/...`. */
function rootRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rootRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node))
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${ROOT}${v}` : rootRefs(v);
  return out;
}
