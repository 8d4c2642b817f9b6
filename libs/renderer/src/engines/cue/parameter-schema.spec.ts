import { RenderError } from '../../errors.js';
import { validateProperties } from '../../params/index.js';
import { createCueEngine, type CueEngine } from './index.js';
import { WEBSERVICE } from './testdata/fixtures.js';

let engine: CueEngine;
beforeAll(() => {
  engine = createCueEngine({ timeoutMs: 10000, poolSize: 1 });
});
afterAll(() => engine.close());

describe('CUE engine: parameter schema (CUE OpenAPI export)', () => {
  it('exports types, required fields, defaults, enums, bounds and usage text', async () => {
    const schema = (await engine
      .compile('ComponentDefinition "webservice"', WEBSERVICE)
      .parameterSchema()) as any;
    expect(schema.type).toBe('object');
    // Fields with a default are filled in by CUE, so only `image` is required.
    expect(schema.required).toEqual(['image']);
    expect(schema.properties.image).toEqual({
      type: 'string',
      description: 'Which image would you like to use for your service',
    });
    expect(schema.properties.replicas).toEqual({
      type: 'integer',
      minimum: 0,
      default: 1,
      description: 'Number of pods',
    });
    expect(schema.properties.exposeType).toEqual({
      type: 'string',
      enum: ['ClusterIP', 'NodePort', 'LoadBalancer'],
      default: 'ClusterIP',
    });
    expect(schema.properties.labels).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    const port = schema.properties.ports.items;
    expect(port.required).toEqual(['port']);
    expect(port.properties.port).toMatchObject({ type: 'integer', minimum: 1, maximum: 65535 });
    expect(port.properties.protocol).toMatchObject({ enum: ['TCP', 'UDP', 'SCTP'], default: 'TCP' });
    expect(port.properties.expose).toEqual({ type: 'boolean', default: false });
  });

  it('inlines the template definitions parameters refer to', async () => {
    const schema = (await engine
      .compile('ComponentDefinition "webservice"', WEBSERVICE)
      .parameterSchema()) as any;
    expect(schema.properties.livenessProbe).toMatchObject({
      type: 'object',
      description: 'Instructions for assessing whether the container is alive',
      properties: {
        httpGet: { type: 'object', required: ['path', 'port'] },
        initialDelaySeconds: { type: 'integer', default: 0 },
      },
    });
    expect(JSON.stringify(schema)).not.toContain('$ref');
  });

  it('turns OpenAPI exclusive bounds and nullable into JSON Schema', async () => {
    const template = `parameter: {
	ratio: number & >0 & <1
	note: *null | string
}
output: {apiVersion: "v1", kind: "ConfigMap", data: note: parameter.note}
`;
    const schema = (await engine.compile('ComponentDefinition "bounds"', template).parameterSchema()) as any;
    expect(schema.properties.ratio).toEqual({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 });
    expect(schema.properties.note).toEqual({ type: ['string', 'null'], default: null });
    expect(schema.required).toEqual(['ratio']);
  });

  it('requires only what CUE cannot complete by itself', async () => {
    // The shapes of KubeVela's env (unset, env), hpa (cpu) and storage (pvc[].resources).
    const template = `parameter: {
	name: string
	kind: "Fixed"
	unset: *[] | [...string]
	ports: [...{port: int}]
	env: [string]: string
	cpu: {
		type:  *"Utilization" | "AverageValue"
		value: *50 | int
	}
	pvc?: [...{
		name: string
		resources: requests: storage: *"8Gi" | string
	}]
	mode: "a" | "b"
	nested: {x: string, y: *1 | int}
	anything: _
}
output: {apiVersion: "v1", kind: "ConfigMap"}
`;
    const schema = (await engine.compile('TraitDefinition "t"', template).parameterSchema()) as any;
    expect(schema.required).toEqual(['name', 'mode', 'nested', 'anything']);
    expect(schema.properties.pvc.items.required).toEqual(['name']);
    expect(schema.properties.nested.required).toEqual(['x']);
    expect(schema.properties.cpu.required).toBeUndefined();
    const given = { name: 'a', mode: 'a', nested: { x: 'x' }, anything: 1, pvc: [{ name: 't' }] };
    expect(validateProperties(schema, given, { strict: true }).issues).toEqual([]);
    expect(validateProperties(schema, { mode: 'a', nested: {}, anything: 1 }).issues).toEqual([
      { severity: 'error', path: 'properties.name', message: 'required' },
      { severity: 'error', path: 'properties.nested.x', message: 'required' },
    ]);
  });

  it('accepts either side of a disjunction of structs, as CUE does (KubeVela env)', async () => {
    const template = `#PatchParams: {
	containerName: *"" | string
	replace:       *false | bool
	env: [string]: string
	unset: *[] | [...string]
}
parameter: #PatchParams | close({
	containers: [...#PatchParams]
})
patch: {}
`;
    const schema = await engine.compile('TraitDefinition "env"', template).parameterSchema();
    expect(validateProperties(schema, { env: { B: '2' } }).issues).toEqual([]);
    expect(
      validateProperties(schema, { containers: [{ containerName: 'x', env: { A: '1' } }] }).issues,
    ).toEqual([]);
    // Closedness (`close`, definitions) is left to CUE, which evaluates next; what no side accepts fails here.
    expect(validateProperties(schema, { env: 'B=2', containers: 'x' }).issues).toEqual([
      {
        severity: 'error',
        path: 'properties',
        message:
          'does not match any allowed form: properties.env: expected object, got "B=2"; or properties.containers: expected array, got "x"',
      },
    ]);
  });

  it('keeps open structs (`...`) open and closed ones closed', async () => {
    const template = `#Open: {x?: int, ...}
parameter: {
	objects: [...{
		apiVersion: string
		kind:       string
		...
	}]
	closed: {a: int}
	ref: #Open
	inline: {a?: int, ...}
}
output: parameter.objects[0]
`;
    const schema = (await engine
      .compile('ComponentDefinition "k8s-objects"', template)
      .parameterSchema()) as any;
    expect(schema.properties.objects.items.additionalProperties).toBe(true);
    expect(schema.properties.closed.additionalProperties).toBeUndefined();
    const properties = {
      objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: 'b' } }],
      closed: { a: 1, b: 2 },
      ref: { x: 1, y: 2 },
      inline: { b: 1 },
    };
    expect(validateProperties(schema, properties, { strict: true }).issues).toEqual([
      { severity: 'error', path: 'properties.closed.b', message: 'unknown field; known fields: a' },
    ]);
  });

  it('gives an empty object schema for a template without parameters', async () => {
    const template = `output: {apiVersion: "v1", kind: "ConfigMap", metadata: name: context.name}\n`;
    await expect(engine.compile('ComponentDefinition "none"', template).parameterSchema()).resolves.toEqual({
      type: 'object',
      properties: {},
    });
  });

  it('caches the schema per compiled template', async () => {
    const template = engine.compile('ComponentDefinition "webservice"', WEBSERVICE);
    const first = await template.parameterSchema();
    expect(await template.parameterSchema()).toBe(first);
  });

  it('reports a template whose parameter cannot be exported as a definition error', async () => {
    const err = await engine
      .compile('ComponentDefinition "bad"', 'parameter: {a: int\n')
      .parameterSchema()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).source).toBe('definition');
    expect((err as RenderError).detail).toMatch(/^ComponentDefinition "bad", template line 1: expected '}'/);
  });
});
