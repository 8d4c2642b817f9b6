import {
  compileCrdSchemas,
  unknownFields,
  validateBuiltin,
} from '../../libs/kube-server/src/validation/index.js';
import { widget, widgetCrd } from '../../libs/kube-server/src/validation/testing/crd-fixtures.js';
import { deployment } from '../../libs/kube-server/src/validation/testing/fixtures.js';
import { median, type BenchResult } from '../types.js';

/** Cost of admission checks per write: built-in schema validation, unknown fields, CRD schemas. */
function micros(fn: () => unknown, runs: number): number {
  for (let i = 0; i < Math.min(200, runs); i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return median(samples);
}

export async function run(): Promise<BenchResult[]> {
  const gvk = { group: 'apps', version: 'v1', kind: 'Deployment' };
  const obj = deployment();
  const schema = compileCrdSchemas(widgetCrd()).forVersion('v1')!;
  const cr = widget({ size: 2, port: 80, tags: ['a'], extra: { x: 1 } });
  return [
    {
      name: 'validate a Deployment (built-in schema)',
      value: micros(() => validateBuiltin(gvk, obj), 1000),
      unit: 'µs',
      detail: '1000 warm runs',
    },
    {
      name: 'unknown-field check of a Deployment',
      value: micros(() => unknownFields(gvk, obj), 1000),
      unit: 'µs',
      detail: '1000 warm runs',
    },
    {
      name: 'compile a CRD (2 versions)',
      value: micros(() => compileCrdSchemas(widgetCrd()), 50) / 1000,
      unit: 'ms',
      detail: '50 runs',
    },
    {
      name: 'prune + default + validate a custom resource',
      value: micros(() => schema.validate(schema.applyDefaults(schema.prune(cr))), 1000),
      unit: 'µs',
      detail: 'cached validator, 1000 warm runs',
    },
  ];
}
