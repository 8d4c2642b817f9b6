import { compileCrdSchemas } from './index.js';
import { widget, widgetCrd } from './testing/crd-fixtures.js';

/** A JSON document the assertions walk into. */
interface Json {
  [key: string]: Json;
}

const v1 = () => compileCrdSchemas(widgetCrd()).forVersion('v1')!;
const lines = (causes: Array<{ field: string; message: string }>) =>
  causes.map((c) => `${c.field}: ${c.message}`);

describe('compileCrdSchemas: validate', () => {
  it('accepts a valid object', () => {
    const obj = widget({
      size: 2,
      port: 8080,
      mode: 'fast',
      name: 'abc',
      ratio: 0.5,
      email: 'a@b.io',
      note: null,
      tags: ['x'],
    });
    expect(v1().validate(obj)).toEqual([]);
  });

  it('reports schema violations with kube-openapi messages and reasons', () => {
    const obj = widget({
      size: 11,
      port: true,
      mode: 'slow',
      name: 'ABCDEFG',
      ratio: 0,
      email: 'nope',
      tags: ['a', 'b', 'c'],
      labels: { a: 1 },
    });
    expect(v1().validate(obj)).toEqual([
      {
        field: 'spec.size',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 11: spec.size in body should be less than or equal to 10',
      },
      {
        field: 'spec.port',
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      },
      {
        field: 'spec.mode',
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "slow": supported values: "fast", "safe"',
      },
      { field: 'spec.name', reason: 'FieldValueTooLong', message: 'Too long: may not be longer than 5' },
      {
        field: 'spec.name',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "ABCDEFG": spec.name in body should match \'^[a-z]+$\'',
      },
      {
        field: 'spec.ratio',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 0: spec.ratio in body should be greater than 0',
      },
      {
        field: 'spec.email',
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "nope": spec.email in body must be of type email: "nope"',
      },
      { field: 'spec.tags', reason: 'FieldValueTooMany', message: 'Too many: 3: must have at most 2 items' },
      {
        field: 'spec.labels.a',
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
      },
    ]);
  });

  it('requires required fields and rejects nulls unless nullable', () => {
    expect(lines(v1().validate(widget({ name: null, note: null })))).toEqual([
      'spec.size: Required value',
      'spec.name: Invalid value: "null": spec.name in body must be of type string: "null"',
    ]);
  });

  it('reports short strings and arrays', () => {
    expect(lines(v1().validate(widget({ size: 1, name: 'a', tags: [] })))).toEqual([
      'spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long',
      'spec.tags: Invalid value: []interface {}{}: spec.tags in body should have at least 1 items',
    ]);
  });

  it('rejects duplicates in list-type set and map lists', () => {
    const obj = widget({
      size: 1,
      tags: ['a', 'a'],
      ports: [
        { name: 'http', port: 80 },
        { name: 'http', port: 81 },
      ],
    });
    expect(v1().validate(obj)).toEqual([
      { field: 'spec.tags[1]', reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"' },
      {
        field: 'spec.ports[1]',
        reason: 'FieldValueDuplicate',
        message: 'Duplicate value: map[string]interface {}{"name":"http"}',
      },
    ]);
  });

  it('accepts both ints and strings for x-kubernetes-int-or-string, ignores formats kube does not know', () => {
    expect(v1().validate(widget({ size: 1, port: 'http', color: 'anything' }))).toEqual([]);
    expect(v1().validate(widget({ size: 1, port: 80 }))).toEqual([]);
  });

  it('requires apiVersion and kind of embedded resources and checks their shape', () => {
    expect(lines(v1().validate(widget({ size: 1, template: { metadata: { name: 'Bad_Name' } } })))).toEqual([
      'spec.template.apiVersion: Required value: must not be empty',
      'spec.template.kind: Required value: must not be empty',
      expect.stringMatching(
        /^spec\.template\.metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
      ),
    ]);
    expect(
      v1().validate(widget({ size: 1, template: { apiVersion: 'v1', kind: 'ConfigMap', data: { a: 'b' } } })),
    ).toEqual([]);
  });

  it('checks metadata labels of custom resources', () => {
    const obj = widget();
    obj.metadata.labels = { ok: 'bad value' };
    expect(
      v1()
        .validate(obj)
        .map((c) => c.field),
    ).toEqual(['metadata.labels']);
  });
});

describe('compileCrdSchemas: pruning and unknown fields', () => {
  it('drops fields the schema does not specify, keeping apiVersion, kind and ObjectMeta fields', () => {
    const obj = widget({
      size: 2,
      bogus: 1,
      extra: { anything: { deep: true }, known: { a: 'x', b: 'dropped' } },
    });
    obj.metadata.colour = 'red';
    obj.status = { ready: true, phase: 'Up' };
    obj.topLevel = 1;
    const schema = v1();
    expect(schema.unknownFields(obj)).toEqual([
      'metadata.colour',
      'spec.bogus',
      'spec.extra.known.b',
      'status.phase',
      'topLevel',
    ]);
    expect(schema.prune(obj)).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1', namespace: 'default' },
      spec: { size: 2, extra: { anything: { deep: true }, known: { a: 'x' } } },
      status: { ready: true },
    });
  });

  it('keeps everything under preserve-unknown-fields (embedded resources included) and in maps', () => {
    const obj = widget({
      size: 2,
      labels: { any: 'key' },
      template: { apiVersion: 'v1', kind: 'Pod', spec: { x: 1 } },
    });
    expect(v1().unknownFields(obj)).toEqual([]);
    expect(v1().prune(obj)).toEqual(obj);
  });

  it('keeps everything for a version whose schema preserves unknown fields', () => {
    const v2 = compileCrdSchemas(widgetCrd()).forVersion('v2')!;
    const obj = { ...widget({ anything: [1, 2] }), apiVersion: 'example.com/v2', more: { x: 1 } };
    expect(v2.unknownFields(obj)).toEqual([]);
    expect(v2.prune(obj)).toEqual(obj);
  });

  it('never mutates its input and returns unshared copies', () => {
    const obj = widget({ size: 2, extra: { keep: { me: 1 } }, bogus: true });
    const before = structuredClone(obj);
    const pruned = v1().prune(obj) as { spec: { extra: { keep: { me: number } } } };
    pruned.spec.extra.keep.me = 2;
    const defaulted = v1().applyDefaults(obj) as { spec: { extra: { keep: { me: number } } } };
    defaulted.spec.extra.keep.me = 3;
    v1().validate(obj);
    expect(obj).toEqual(before);
  });
});

describe('compileCrdSchemas: defaulting', () => {
  it('fills absent fields, nested defaults inside defaulted objects, and list items', () => {
    const obj = widget({ resources: { items: [{}, { k: 'set' }] } });
    expect((v1().applyDefaults(obj) as Json).spec).toEqual({
      size: 3,
      mode: 'safe',
      resources: { cpu: '100m', items: [{ k: 'x' }, { k: 'set' }] },
    });
    expect((v1().applyDefaults(widget({})) as Json).spec.resources).toEqual({ cpu: '100m' });
  });

  it('keeps values that are set, replaces nulls of non-nullable fields that have a default, drops the others', () => {
    const obj = widget({ size: 7, mode: null, name: null, note: null });
    expect((v1().applyDefaults(obj) as Json).spec).toEqual({
      size: 7,
      mode: 'safe',
      note: null,
      resources: { cpu: '100m' },
    });
  });
});

describe('compileCrdSchemas: versions and caching', () => {
  it('returns undefined for a version the CRD does not define', () => {
    expect(compileCrdSchemas(widgetCrd()).forVersion('v9')).toBeUndefined();
  });

  it('compiles a version once and reuses it', () => {
    const schemas = compileCrdSchemas(widgetCrd());
    expect(schemas.forVersion('v1')).toBe(schemas.forVersion('v1'));
  });

  it('is unaffected by later changes to the CRD object it was compiled from', () => {
    const crd = widgetCrd();
    const schemas = compileCrdSchemas(crd);
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size.maximum = 100;
    expect(schemas.forVersion('v1')!.validate(widget({ size: 50 }))).toHaveLength(1);
  });

  it('throws at compile time, naming the CRD and version, when a schema cannot compile', () => {
    const crd = widgetCrd();
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.name.pattern = '(';
    expect(() => compileCrdSchemas(crd)).toThrow(
      /cannot compile the openAPIV3Schema of widgets\.example\.com version v1/,
    );
  });
});
