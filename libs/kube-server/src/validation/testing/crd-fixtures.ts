/* eslint-disable @typescript-eslint/no-explicit-any -- fixtures the validation specs reach into and break field by field, at any depth */
/** A CRD exercising the schema features the server must honour. */
export const widgetCrd = (): Record<string, any> => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
                  port: { 'x-kubernetes-int-or-string': true },
                  mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe' },
                  name: { type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 5 },
                  ratio: { type: 'number', minimum: 0, exclusiveMinimum: true },
                  email: { type: 'string', format: 'email' },
                  color: { type: 'string', format: 'x-unknown-format' },
                  note: { type: 'string', nullable: true },
                  tags: {
                    type: 'array',
                    items: { type: 'string' },
                    minItems: 1,
                    maxItems: 2,
                    'x-kubernetes-list-type': 'set',
                  },
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: {
                      type: 'object',
                      required: ['name'],
                      properties: { name: { type: 'string' }, port: { type: 'integer' } },
                    },
                  },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                  extra: {
                    type: 'object',
                    'x-kubernetes-preserve-unknown-fields': true,
                    properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
                  },
                  template: {
                    type: 'object',
                    'x-kubernetes-embedded-resource': true,
                    'x-kubernetes-preserve-unknown-fields': true,
                  },
                  resources: {
                    type: 'object',
                    default: {},
                    properties: {
                      cpu: { type: 'string', default: '100m' },
                      items: {
                        type: 'array',
                        items: { type: 'object', properties: { k: { type: 'string', default: 'x' } } },
                      },
                    },
                  },
                },
              },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      },
      {
        name: 'v2',
        served: true,
        storage: false,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
});

export const widget = (spec: Record<string, unknown> = { size: 2 }): Record<string, any> => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: 'default' },
  spec,
});
