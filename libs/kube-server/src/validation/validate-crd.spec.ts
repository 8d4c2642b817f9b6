import { validateCrd } from './index.js';
import { widgetCrd } from './testing/crd-fixtures.js';

const lines = (causes: Array<{ field: string; message: string }>) =>
  causes.map((c) => `${c.field}: ${c.message}`);
const SCHEMA = 'spec.versions[0].schema.openAPIV3Schema';

function withSchema(openAPIV3Schema: Record<string, unknown>) {
  const crd = widgetCrd();
  crd.spec.versions = [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }];
  return crd;
}

describe('validateCrd: the CRD object', () => {
  it('accepts a valid CRD', () => {
    expect(validateCrd(widgetCrd())).toEqual([]);
  });

  it('requires the name to be <plural>.<group>', () => {
    const crd = widgetCrd();
    crd.metadata.name = 'widget.example.com';
    expect(validateCrd(crd)).toEqual([
      {
        field: 'metadata.name',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "widget.example.com": must be spec.names.plural+"."+spec.group',
      },
    ]);
  });

  it('requires group, names and scope', () => {
    const crd = widgetCrd();
    crd.metadata.name = '.';
    crd.spec.group = '';
    crd.spec.names = {};
    crd.spec.scope = 'Global';
    expect(lines(validateCrd(crd))).toEqual([
      'metadata.name: Invalid value: ".": must be spec.names.plural+"."+spec.group',
      'spec.group: Required value',
      'spec.names.plural: Required value',
      'spec.names.kind: Required value',
      'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    ]);
  });

  it('wants a group with a dot and DNS-1035 names', () => {
    const crd = widgetCrd();
    crd.metadata.name = 'Widgets.example';
    crd.spec.group = 'example';
    crd.spec.names = { plural: 'Widgets', kind: 'Wid_get', listKind: 'Wid_get', shortNames: ['w1', '1w'] };
    const got = lines(validateCrd(crd));
    expect(got).toContain('spec.group: Invalid value: "example": should be a domain with at least one dot');
    expect(got).toContain(
      'spec.names.listKind: Invalid value: "Wid_get": kind and listKind may not be the same',
    );
    expect(
      got.filter((l) =>
        l.startsWith(
          'spec.names.kind: Invalid value: "Wid_get": may have mixed case, but should otherwise match: a DNS-1035 label',
        ),
      ),
    ).toHaveLength(1);
    expect(
      got.filter((l) => l.startsWith('spec.names.plural: Invalid value: "Widgets": a DNS-1035 label')),
    ).toHaveLength(1);
    expect(got.filter((l) => l.startsWith('spec.names.shortNames[1]: Invalid value: "1w"'))).toHaveLength(1);
  });

  it('requires exactly one storage version with unique names and a schema', () => {
    const crd = widgetCrd();
    crd.spec.versions[1].storage = true;
    crd.spec.versions[1].name = 'v1';
    delete crd.spec.versions[1].schema;
    expect(lines(validateCrd(crd))).toEqual([
      'spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required',
      'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must contain unique version names',
      'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}: must have exactly one version marked as storage version',
    ]);
    crd.spec.versions = [];
    expect(lines(validateCrd(crd))).toEqual([
      'spec.versions: Required value: must have exactly one version marked as storage version',
    ]);
  });

  it('checks printer columns', () => {
    const crd = widgetCrd();
    crd.spec.versions[0].additionalPrinterColumns = [
      { name: 'Size', type: 'int', jsonPath: '.spec.size' },
      { name: 'X' },
    ];
    expect(lines(validateCrd(crd))).toEqual([
      'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "int": supported values: "integer", "number", "string", "boolean", "date"',
      'spec.versions[0].additionalPrinterColumns[1].type: Required value',
      'spec.versions[0].additionalPrinterColumns[1].jsonPath: Required value',
    ]);
  });
});

describe('validateCrd: structural schema rules', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'a root that is not an object',
      { type: 'string' },
      [`${SCHEMA}.type: Invalid value: "string": must be object at the root`],
    ],
    [
      'a root without a type',
      { properties: {} },
      [`${SCHEMA}.type: Required value: must not be empty at the root`],
    ],
    [
      'a field without a type',
      { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } },
      [`${SCHEMA}.properties[spec].type: Required value: must not be empty for specified object fields`],
    ],
    [
      'array items without a type, and an array without items',
      { type: 'object', properties: { a: { type: 'array', items: {} }, b: { type: 'array' } } },
      [
        `${SCHEMA}.properties[a].items.type: Required value: must not be empty for specified array items`,
        `${SCHEMA}.properties[b].items: Required value: must be specified`,
      ],
    ],
    [
      'properties together with additionalProperties',
      {
        type: 'object',
        properties: {
          m: {
            type: 'object',
            properties: { a: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
        },
      },
      [
        `${SCHEMA}.properties[m].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
      ],
    ],
    [
      'additionalProperties at the root',
      { type: 'object', additionalProperties: { type: 'string' } },
      [`${SCHEMA}.additionalProperties: Forbidden: must not be used at the root`],
    ],
    [
      'a type inside anyOf',
      {
        type: 'object',
        properties: { a: { type: 'string', anyOf: [{ type: 'string' }, { pattern: '^a' }] } },
      },
      [`${SCHEMA}.properties[a].anyOf[0].type: Forbidden: must be empty to be structural`],
    ],
    [
      'metadata constraints beyond name and generateName',
      {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { labels: { type: 'object' } } } },
      },
      [
        `${SCHEMA}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
      ],
    ],
    [
      'an embedded resource that is not an object or has no properties',
      { type: 'object', properties: { e: { type: 'string', 'x-kubernetes-embedded-resource': true } } },
      [
        `${SCHEMA}.properties[e].type: Invalid value: "string": must be object if x-kubernetes-embedded-resource is true`,
        `${SCHEMA}.properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields`,
      ],
    ],
    [
      'int-or-string with preserve-unknown-fields',
      {
        type: 'object',
        properties: {
          p: { 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
      [
        `${SCHEMA}.properties[p].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true`,
      ],
    ],
    [
      'a default that does not match its schema',
      {
        type: 'object',
        properties: { spec: { type: 'object', properties: { n: { type: 'integer', default: 'three' } } } },
      },
      [
        `${SCHEMA}.properties[spec].properties[n].default: Invalid value: "string": default in body must be of type integer: "string"`,
      ],
    ],
  ])('rejects %s', (_what, schema, expected) => {
    expect(lines(validateCrd(withSchema(schema)))).toEqual(expected);
  });

  it.each<[string, Record<string, unknown>]>([
    [
      'int-or-string with the anyOf pattern',
      {
        type: 'object',
        properties: {
          p: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        },
      },
    ],
    [
      'a preserve-unknown-fields node without a type',
      { type: 'object', properties: { any: { 'x-kubernetes-preserve-unknown-fields': true } } },
    ],
    [
      'metadata restricting the name only',
      {
        type: 'object',
        properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 20 } } } },
      },
    ],
    [
      'value validations in allOf',
      { type: 'object', properties: { a: { type: 'string', allOf: [{ minLength: 1 }, { maxLength: 9 }] } } },
    ],
  ])('accepts %s', (_what, schema) => {
    expect(validateCrd(withSchema(schema))).toEqual([]);
  });
});
