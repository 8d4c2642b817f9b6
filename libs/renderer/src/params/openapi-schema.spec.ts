import { toOpenApiV3 } from './openapi-schema.js';

describe('toOpenApiV3', () => {
  it('turns null branches into nullable, const into enum, and drops keywords OpenAPI v3 lacks', () => {
    expect(
      toOpenApiV3({
        type: 'object',
        propertyNames: { maxLength: 3 },
        properties: {
          a: { anyOf: [{ type: 'string', maxLength: 63 }, { type: 'null' }] },
          b: { type: ['integer', 'null'] },
          c: { const: 'x' },
        },
        additionalProperties: { $schema: 'x', type: 'string' },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { nullable: true, type: 'string', maxLength: 63 },
        b: { nullable: true, type: 'integer' },
        c: { enum: ['x'] },
      },
      additionalProperties: { type: 'string' },
    });
  });
});
