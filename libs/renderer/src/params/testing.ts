/** Shared fixtures of the parameter validation specs. */
import type { ParamIssue } from './types.js';
import { validateProperties } from './index.js';

export const webservice = {
  type: 'object',
  required: ['image'],
  properties: {
    image: { type: 'string', description: 'container image' },
    imagePullPolicy: { type: 'string', enum: ['Always', 'Never', 'IfNotPresent'] },
    port: { type: 'integer', format: 'int64', default: 80 },
    cpu: { type: 'string' },
    exposeType: { type: 'string', enum: ['ClusterIP', 'NodePort', 'LoadBalancer'], default: 'ClusterIP' },
    ports: {
      type: 'array',
      items: {
        type: 'object',
        required: ['port'],
        properties: {
          port: { type: 'integer', minimum: 1, maximum: 65535 },
          protocol: { type: 'string', enum: ['TCP', 'UDP'], default: 'TCP' },
          expose: { type: 'boolean', default: false },
        },
      },
    },
    env: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } },
    },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    resources: {
      type: 'object',
      default: {},
      properties: {
        limits: { type: 'object', default: {}, properties: { memory: { type: 'string', default: '128Mi' } } },
      },
    },
  },
};

export const lines = (issues: ParamIssue[]) => issues.map((i) => `${i.severity}: ${i.path}: ${i.message}`);
export const check = (
  properties: Record<string, unknown> | undefined,
  options = {},
  schema: Record<string, unknown> = webservice,
) => validateProperties(schema, properties, options);
