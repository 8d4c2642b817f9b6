import { check, lines } from './testing.js';

describe('validateProperties: messages', () => {
  it('accepts valid properties without issues', () => {
    expect(check({ image: 'nginx', port: 8080, ports: [{ port: 80 }] }).issues).toEqual([]);
  });

  it('names the expected type and the value found', () => {
    expect(lines(check({ image: 'nginx', port: 'eighty', cpu: 1 }).issues)).toEqual([
      'error: properties.port: expected integer, got "eighty"',
      'error: properties.cpu: expected string, got 1',
    ]);
  });

  it('reports a missing required field at its own path', () => {
    expect(lines(check({}).issues)).toEqual(['error: properties.image: required']);
    expect(lines(check(undefined).issues)).toEqual(['error: properties.image: required']);
  });

  it('lists the allowed values of an enum', () => {
    expect(lines(check({ image: 'x', exposeType: 'Foo' }).issues)).toEqual([
      'error: properties.exposeType: expected one of ClusterIP, NodePort, LoadBalancer, got "Foo"',
    ]);
  });

  it('uses nested paths with list indexes', () => {
    const result = check({
      image: 'x',
      ports: [{ port: 80 }, { port: 0 }, { protocol: 'TCP' }, { port: 70000 }],
    });
    expect(lines(result.issues)).toEqual([
      'error: properties.ports[1].port: expected at least 1, got 0',
      'error: properties.ports[2].port: required',
      'error: properties.ports[3].port: expected at most 65535, got 70000',
    ]);
  });

  it('reports every problem at once', () => {
    expect(check({ port: 1.5, ports: 'none', labels: { a: 1 } }).issues.map((i) => i.path)).toEqual([
      'properties.image',
      'properties.port',
      'properties.ports',
      'properties.labels.a',
    ]);
  });

  it('describes lists and maps by what they are, not by their content', () => {
    expect(lines(check({ image: ['a'], cpu: { a: 1 } }).issues)).toEqual([
      'error: properties.image: expected string, got a list',
      'error: properties.cpu: expected string, got a map',
    ]);
  });

  it('quotes map keys that are not plain words', () => {
    const result = check({ image: 'x', labels: { 'app.oam.dev/name': 5 } });
    expect(lines(result.issues)).toEqual([
      'error: properties.labels["app.oam.dev/name"]: expected string, got 5',
    ]);
  });

  it('words string, list, format and pattern limits', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, maxLength: 3, pattern: '^[a-z]+$' },
        tags: { type: 'array', minItems: 1, uniqueItems: true },
        email: { type: 'string', format: 'email' },
        replicas: { type: 'integer', format: 'int32', multipleOf: 2 },
        mode: { const: 'fast' },
      },
    };
    const result = check(
      { name: 'ABCD', tags: [], email: 'nope', replicas: 2 ** 40 + 1, mode: 'slow' },
      {},
      schema,
    );
    expect(lines(result.issues)).toEqual([
      'error: properties.name: expected at most 3 characters, got 4',
      'error: properties.name: expected a string matching ^[a-z]+$, got "ABCD"',
      'error: properties.tags: expected at least 1 item, got 0',
      'error: properties.email: expected a valid email, got "nope"',
      'error: properties.replicas: expected a multiple of 2, got 1099511627777',
      'error: properties.replicas: expected a valid int32, got 1099511627777',
      'error: properties.mode: expected fast, got "slow"',
    ]);
    expect(lines(check({ tags: [1, 1] }, {}, schema).issues)).toEqual([
      'error: properties.tags: expected unique items, but [0] and [1] are equal',
    ]);
  });

  it('accepts the int64 format CUE exports for integers', () => {
    expect(check({ image: 'x', port: 2 ** 40 }).issues).toEqual([]);
  });

  it('folds the alternatives of anyOf/oneOf into one message', () => {
    const nullable = {
      type: 'object',
      properties: { value: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    };
    expect(lines(check({ value: 5 }, {}, nullable).issues)).toEqual([
      'error: properties.value: expected string or null, got 5',
    ]);
    const either = {
      type: 'object',
      anyOf: [{ required: ['ports'] }, { required: ['port'] }],
      properties: { port: {}, ports: {} },
    };
    expect(lines(check({}, {}, either).issues)).toEqual([
      'error: properties: expected one of ports, port to be set',
    ]);
    const choice = {
      type: 'object',
      properties: { size: { oneOf: [{ const: 'small' }, { enum: ['large', 'huge'] }] } },
    };
    expect(lines(check({ size: 'medium' }, {}, choice).issues)).toEqual([
      'error: properties.size: expected one of small, large, huge, got "medium"',
    ]);
    const shapes = {
      type: 'object',
      properties: {
        probe: {
          oneOf: [
            { type: 'object', required: ['path'], properties: { path: { type: 'string' } } },
            { type: 'object', required: ['command'], properties: { command: { type: 'array' } } },
          ],
        },
      },
    };
    expect(lines(check({ probe: { path: 1 } }, {}, shapes).issues)).toEqual([
      'error: properties.probe: does not match any allowed form: properties.probe.path: expected string, got 1; or properties.probe.command: required',
    ]);
  });

  it('says when more than one oneOf alternative matches', () => {
    const schema = {
      type: 'object',
      properties: { v: { oneOf: [{ type: 'integer' }, { type: 'number' }] } },
    };
    expect(lines(check({ v: 1 }, {}, schema).issues)).toEqual([
      'error: properties.v: expected exactly one allowed form to match, but forms 0 and 1 all match',
    ]);
  });

  it('checks field names against propertyNames', () => {
    const schema = {
      type: 'object',
      propertyNames: { pattern: '^[a-z]+$' },
      additionalProperties: { type: 'string' },
    };
    expect(lines(check({ ok: 'a', 'Bad!': 'b' }, {}, schema).issues)).toEqual([
      'error: properties["Bad!"]: invalid field name: expected a string matching ^[a-z]+$, got "Bad!"',
    ]);
  });

  it('never shows ajv wording', () => {
    const result = check({ image: 3, port: 'x', exposeType: 1, ports: [{}] });
    for (const issue of result.issues) expect(issue.message).not.toMatch(/must (be|have|match)|NOT/);
  });
});
