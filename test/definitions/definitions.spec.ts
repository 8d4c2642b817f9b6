import { ComponentDefinitionSchema, DESCRIPTION_ANNOTATION, TraitDefinitionSchema } from '#api';
import { loadDefinitionFiles } from './support/load.js';
import { renderTemplate } from './support/cue.js';
import { componentContext, traitContext } from './support/context.js';
import { fieldsWithoutUsage } from './support/usage.js';
import { schemasWithoutDescription } from './support/json-schema.js';

/**
 * Every built-in definition in definitions/: valid against the API schemas,
 * described for the catalog, named like KubeVela's, and its CUE evaluates.
 */
const files = loadDefinitionFiles();
const components = files.filter((f) => f.folder === 'components');
const traits = files.filter((f) => f.folder === 'traits');

interface Spec {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: {
    schematic: { cue?: { template: string }; handlebars?: { template: string; parameters?: unknown } };
  };
}
const spec = (o: unknown) => o as Spec;

/** The smallest valid properties per definition, for the evaluation smoke test. */
const MINIMAL: Record<string, Record<string, unknown>> = {
  webservice: { image: 'nginx' },
  worker: { image: 'busybox' },
  daemon: { image: 'busybox' },
  statefulset: { image: 'redis' },
  task: { image: 'busybox' },
  'cron-task': { image: 'busybox', schedule: '@hourly' },
  'k8s-objects': { objects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }] },
  scaler: {},
  hpa: {},
  cpuscaler: {},
  gateway: { http: { '/': 80 } },
  env: { env: { A: 'b' } },
  annotations: { a: 'b' },
  sidecar: { name: 'proxy', image: 'envoy' },
  resource: { cpu: 1, memory: '1Gi' },
  storage: { emptyDir: [{ name: 'tmp', mountPath: '/tmp' }] },
  affinity: { tolerations: [{ key: 'k', operator: 'Exists' }] },
};

describe('the built-in definitions', () => {
  it("cover KubeVela's core component types and traits", () => {
    expect(components.map((f) => f.stem).sort()).toEqual(
      ['cron-task', 'daemon', 'k8s-objects', 'statefulset', 'task', 'webservice', 'worker'].sort(),
    );
    expect(traits.map((f) => f.stem).sort()).toEqual(
      [
        'affinity',
        'annotations',
        'cpuscaler',
        'env',
        'expose',
        'gateway',
        'hpa',
        'labels',
        'resource',
        'scaler',
        'sidecar',
        'storage',
      ].sort(),
    );
  });

  it('prove the Handlebars engine with at least two traits', () => {
    const handlebars = traits.filter((f) => spec(f.object).spec.schematic.handlebars).map((f) => f.stem);
    expect(handlebars.sort()).toEqual(['expose', 'labels']);
  });

  it.each(components.map((f) => [f.path, f] as const))('%s is a valid ComponentDefinition', (_path, file) => {
    const parsed = ComponentDefinitionSchema.safeParse(file.object);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it.each(traits.map((f) => [f.path, f] as const))('%s is a valid TraitDefinition', (_path, file) => {
    const parsed = TraitDefinitionSchema.safeParse(file.object);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it.each(files.map((f) => [f.path, f] as const))(
    '%s is named after its file and described',
    (_path, file) => {
      const def = spec(file.object);
      expect(def.metadata.name).toBe(file.stem);
      expect(def.metadata.annotations?.[DESCRIPTION_ANNOTATION]?.length ?? 0).toBeGreaterThan(10);
    },
  );

  it.each(files.filter((f) => spec(f.object).spec.schematic.cue).map((f) => [f.path, f] as const))(
    '%s documents every parameter with // +usage=',
    (_path, file) => {
      expect(fieldsWithoutUsage(spec(file.object).spec.schematic.cue!.template)).toEqual([]);
    },
  );

  it.each(files.filter((f) => spec(f.object).spec.schematic.handlebars).map((f) => [f.path, f] as const))(
    '%s describes every parameter in its JSON Schema',
    (_path, file) => {
      const parameters = spec(file.object).spec.schematic.handlebars!.parameters;
      expect(parameters).toBeDefined();
      expect(schemasWithoutDescription(parameters)).toEqual([]);
    },
  );

  it.each(files.filter((f) => spec(f.object).spec.schematic.cue).map((f) => [f.path, f] as const))(
    '%s evaluates on CUE v0.14.1 with minimal properties',
    async (_path, file) => {
      const template = spec(file.object).spec.schematic.cue!.template;
      const properties = MINIMAL[file.stem];
      expect(properties).toBeDefined();
      const context =
        file.folder === 'components'
          ? componentContext('demo', file.stem)
          : traitContext('demo', 'webservice', await webserviceOutput());
      const result = await renderTemplate(template, properties, context);
      if (file.folder === 'components') expect(result.output?.kind).toMatch(/^[A-Z]/);
      else expect(result.patch !== undefined || Object.keys(result.outputs).length > 0).toBe(true);
    },
  );

  it('reject the usage checker’s counter-example, so the check can fail', () => {
    expect(fieldsWithoutUsage('parameter: {\n  // +usage=ok\n  a: int\n  b?: string\n}\n')).toEqual([
      'line 4: b?: string',
    ]);
    expect(fieldsWithoutUsage('parameter: [string]: string\n')).toEqual([
      'line 1: parameter: [string]: string',
    ]);
  });
});

async function webserviceOutput() {
  const webservice = components.find((f) => f.stem === 'webservice')!;
  const { output } = await renderTemplate(
    spec(webservice.object).spec.schematic.cue!.template,
    { image: 'nginx' },
    componentContext('demo', 'webservice'),
  );
  return output!;
}
