import { parameterRows, typeName } from './parameter-table.js';

describe('def show: a parameter schema as table rows', () => {
  it('nested fields of objects and of list items are indented below their property', () => {
    const rows = parameterRows({
      type: 'object',
      required: ['image'],
      properties: {
        image: { type: 'string', description: 'the image' },
        ports: {
          type: 'array',
          items: {
            type: 'object',
            required: ['port'],
            properties: { port: { type: 'integer' }, expose: { type: 'boolean', default: false } },
          },
        },
      },
    });
    expect(rows).toEqual([
      { name: 'image', type: 'string', required: true, default: '', description: 'the image' },
      { name: 'ports', type: '[]object', required: false, default: '', description: '' },
      { name: '  port', type: 'integer', required: true, default: '', description: '' },
      { name: '  expose', type: 'boolean', required: false, default: 'false', description: '' },
    ]);
  });

  it('type names: enums, maps, unions', () => {
    expect(typeName({ enum: ['TCP', 'UDP'] })).toBe('"TCP"|"UDP"');
    expect(typeName({ type: 'object', additionalProperties: { type: 'string' } })).toBe('map[string]string');
    expect(typeName({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toBe('string|number');
  });
});
