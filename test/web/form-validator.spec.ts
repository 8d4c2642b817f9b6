import type { RJSFSchema } from '@rjsf/utils';
import { formValidator } from '../../apps/web/src/parts/form-validator.js';

// rjsf picks the anyOf/oneOf alternative a value matches with isValid; these are the shapes the
// catalog's parameter schemas use (a disjunction of types, objects told apart by their fields).
const root: RJSFSchema = {
  type: 'object',
  $defs: { port: { type: 'integer', minimum: 1, maximum: 65535 } },
  properties: {
    cpu: { anyOf: [{ type: 'string' }, { type: 'number' }] },
    probe: {
      oneOf: [
        { type: 'object', required: ['httpGet'], properties: { httpGet: { type: 'object' } } },
        { type: 'object', required: ['exec'], properties: { exec: { type: 'object' } } },
      ],
    },
    port: { $ref: '#/$defs/port' },
  },
};

describe('the web form’s validator (no eval: the page’s CSP has no unsafe-eval)', () => {
  it('tells which alternative a value matches', () => {
    const [str, num] = (root.properties!.cpu as RJSFSchema).anyOf as RJSFSchema[];
    expect(formValidator.isValid(str, '100m', root)).toBe(true);
    expect(formValidator.isValid(num, '100m', root)).toBe(false);
    expect(formValidator.isValid(num, 0.5, root)).toBe(true);
    const [http, exec] = (root.properties!.probe as RJSFSchema).oneOf as RJSFSchema[];
    expect(formValidator.isValid(exec, { exec: { command: ['true'] } }, root)).toBe(true);
    expect(formValidator.isValid(http, { exec: { command: ['true'] } }, root)).toBe(false);
  });

  it("resolves an alternative's #/ references against the root schema", () => {
    const port = root.properties!.port as RJSFSchema;
    expect(formValidator.isValid(port, 8080, root)).toBe(true);
    expect(formValidator.isValid(port, 70000, root)).toBe(false);
  });

  it('leaves the schemas it is given as they were', () => {
    const before = JSON.stringify(root);
    formValidator.isValid(root, { port: 1 }, root);
    expect(JSON.stringify(root)).toBe(before);
  });

  it('reports no form errors of its own: the API judges the Application', () => {
    expect(formValidator.validateFormData({ port: 'x' }, root)).toEqual({ errors: [], errorSchema: {} });
    expect(formValidator.rawValidation(root, { port: 0 }).errors?.length).toBeGreaterThan(0);
  });
});
