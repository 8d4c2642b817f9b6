import { jest } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { check, lines, webservice } from './testing.js';

describe('validateProperties: unknown fields', () => {
  it('warns about a field the schema does not list, suggesting the nearest known one', () => {
    expect(lines(check({ image: 'x', imagePullPolicyy: 'Always' }).issues)).toEqual([
      'warning: properties.imagePullPolicyy: unknown field (did you mean "imagePullPolicy"?)',
    ]);
  });

  it('makes it an error in strict mode', () => {
    expect(lines(check({ image: 'x', imagee: 'y' }, { strict: true }).issues)).toEqual([
      'error: properties.imagee: unknown field (did you mean "image"?)',
    ]);
  });

  it('lists the known fields when nothing is close', () => {
    const schema = { type: 'object', properties: { a: {}, b: {} } };
    expect(lines(check({ zzzzzz: 1 }, {}, schema).issues)).toEqual([
      'warning: properties.zzzzzz: unknown field; known fields: a, b',
    ]);
  });

  it('looks into nested maps and list items', () => {
    const result = check({
      image: 'x',
      ports: [{ port: 80, protocl: 'TCP' }],
      resources: { limits: { memroy: '1Gi' } },
    });
    expect(lines(result.issues)).toEqual([
      'warning: properties.ports[0].protocl: unknown field (did you mean "protocol"?)',
      'warning: properties.resources.limits.memroy: unknown field (did you mean "memory"?)',
    ]);
  });

  it('accepts any field where additionalProperties allows it, and checks its value', () => {
    expect(check({ image: 'x', labels: { anything: 'goes' } }).issues).toEqual([]);
    const open = { type: 'object', properties: { a: {} }, additionalProperties: true };
    expect(check({ b: 1 }, { strict: true }, open).issues).toEqual([]);
  });

  it('reports additionalProperties: false as an error even when not strict', () => {
    const closed = { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false };
    expect(lines(check({ nmae: 'x' }, {}, closed).issues)).toEqual([
      'error: properties.nmae: unknown field (did you mean "name"?)',
    ]);
  });

  it('knows the fields of every anyOf/oneOf/allOf alternative', () => {
    const schema = {
      type: 'object',
      allOf: [{ properties: { a: { type: 'string' } } }],
      anyOf: [{ properties: { b: { type: 'string' } } }, { properties: { c: { type: 'string' } } }],
    };
    expect(lines(check({ a: 'x', c: 'y', dd: 'z' }, {}, schema).issues)).toEqual([
      'warning: properties.dd: unknown field; known fields: a, b, c',
    ]);
  });

  it('follows local $refs', () => {
    const schema = {
      type: 'object',
      $defs: { probe: { type: 'object', properties: { path: { type: 'string' } } } },
      properties: { probe: { $ref: '#/$defs/probe' } },
    };
    expect(lines(check({ probe: { pth: '/' } }, {}, schema).issues)).toEqual([
      'warning: properties.probe.pth: unknown field (did you mean "path"?)',
    ]);
  });

  it('says so when a definition takes no parameters', () => {
    expect(lines(check({ x: 1 }, {}, { type: 'object', properties: {} }).issues)).toEqual([
      'warning: properties.x: unknown field (this definition takes no parameters here)',
    ]);
  });
});

describe('validateProperties: defaults', () => {
  it('fills in defaults, nested ones and list items included, on a copy', () => {
    const input = { image: 'nginx', ports: [{ port: 80 }] };
    const result = check(input, { applyDefaults: true });
    expect(result.issues).toEqual([]);
    expect(result.value).toEqual({
      image: 'nginx',
      port: 80,
      exposeType: 'ClusterIP',
      ports: [{ port: 80, protocol: 'TCP', expose: false }],
      resources: { limits: { memory: '128Mi' } },
    });
    expect(input).toEqual({ image: 'nginx', ports: [{ port: 80 }] });
  });

  it('keeps given values over defaults', () => {
    const result = check({ image: 'x', port: 9090, exposeType: 'NodePort' }, { applyDefaults: true });
    expect(result.value).toMatchObject({ port: 9090, exposeType: 'NodePort' });
  });

  it('leaves properties untouched without applyDefaults', () => {
    const input = { image: 'x' };
    expect(check(input).value).toBe(input);
  });
});

describe('validateProperties: schemas', () => {
  it('refuses an invalid schema as a definition error', () => {
    expect(() => check({}, {}, { type: 'object', properties: { a: { type: 'text' } } })).toThrow(
      /definition error: the parameter schema is not a valid JSON Schema: parameters\/properties\/a\/type/,
    );
  });

  it('accepts formats it does not know without checking them, and without console output', () => {
    const warn = jest.spyOn(console, 'warn');
    const schema = { type: 'object', properties: { memory: { type: 'string', format: 'quantity' } } };
    expect(check({ memory: 'anything' }, {}, schema).issues).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('ignores keywords it does not know, such as x-kubernetes extensions', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', 'x-kubernetes-int-or-string': true } },
    };
    expect(check({ a: 'x' }, {}, schema).issues).toEqual([]);
  });

  it('reuses the compiled validator for an equal schema', () => {
    // A schema no other test compiled: equal copies, distinct objects.
    const a = { ...structuredClone(webservice), description: 'reuse test' };
    const b = structuredClone(a);
    const compile = jest.spyOn(Ajv2020.prototype, 'compile');
    try {
      check({ image: 'x' }, {}, a);
      const compiled = compile.mock.calls.length;
      expect(compiled).toBeGreaterThan(0);
      for (let i = 0; i < 200; i++) check({ image: 'x' }, {}, i % 2 ? a : b);
      expect(compile.mock.calls.length).toBe(compiled);
    } finally {
      compile.mockRestore();
    }
  });
});
