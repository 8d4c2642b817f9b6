import { rulesFromOpenApi } from './openapi-rules.js';

describe('rulesFromOpenApi', () => {
  it('reads list types, map keys (with their defaults) and atomic maps at rule-table paths', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            ports: {
              type: 'array',
              'x-kubernetes-list-type': 'map',
              'x-kubernetes-list-map-keys': ['port', 'protocol'],
              items: {
                type: 'object',
                properties: {
                  port: { type: 'integer' },
                  protocol: { type: 'string', default: 'TCP' },
                  tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                },
              },
            },
            args: { type: 'array', items: { type: 'string' } },
            selector: { type: 'object', 'x-kubernetes-map-type': 'atomic' },
          },
        },
      },
    };
    expect(rulesFromOpenApi(schema)).toEqual({
      'spec.ports': {
        kind: 'list',
        strategy: 'replace',
        listType: 'map',
        mapKeys: ['port', 'protocol'],
        keyDefaults: { protocol: 'TCP' },
      },
      'spec.ports[].tags': { kind: 'list', strategy: 'replace', listType: 'set' },
      'spec.selector': { kind: 'map', mapType: 'atomic' },
    });
    // Read once per schema object.
    expect(rulesFromOpenApi(schema)).toBe(rulesFromOpenApi(schema));
  });
});
