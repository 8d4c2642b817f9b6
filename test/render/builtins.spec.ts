import { stringify } from 'yaml';
import { createRenderer, renderSources, type RendererHandle } from '#renderer';
import type { Definition } from '#api';
import { loadBuiltinDefinitions, projectRoot } from '#definitions';

/**
 * Every built-in definition renders through the Renderer, parameter
 * validation included, with the properties KubeVela's documentation shows
 * for it: what a KubeVela user brings must work unchanged.
 */
const COMPONENTS: Record<string, Record<string, unknown>> = {
  webservice: { image: 'oamdev/hello-world', ports: [{ port: 8000, expose: true }] },
  worker: { image: 'busybox', cmd: ['sleep', '1000'] },
  task: { image: 'perl', count: 1, cmd: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] },
  'cron-task': { image: 'perl', schedule: '*/1 * * * *', cmd: ['perl', '-wle', 'print 1'] },
  daemon: { image: 'busybox', cmd: ['sleep', '1000'] },
  statefulset: { image: 'nginx:latest', cpu: '0.5' },
  'k8s-objects': {
    objects: [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'nginx' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'nginx' } },
          template: {
            metadata: { labels: { app: 'nginx' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx:1.14.0' }] },
          },
        },
      },
    ],
  },
};

const TRAITS: Record<string, Record<string, unknown>> = {
  scaler: { replicas: 2 },
  hpa: { min: 1, max: 10 },
  cpuscaler: { min: 1, max: 10, cpuUtil: 60 },
  gateway: { domain: 'testsvc.example.com', http: { '/': 8000 } },
  expose: { port: [8000] },
  env: { env: { key_first: 'value_first' } },
  labels: { release: 'stable' },
  annotations: { description: 'web application' },
  sidecar: {
    name: 'count-log',
    image: 'busybox',
    cmd: ['/bin/sh', '-c', 'tail -n+1 -f /var/log/date.log'],
    volumes: [{ name: 'varlog', path: '/var/log' }],
  },
  resource: { cpu: 0.5, memory: '300Mi' },
  storage: { pvc: [{ name: 'test1', mountPath: '/test/mount/pvc' }] },
  affinity: {
    podAntiAffinity: {
      preferred: [
        {
          weight: 1,
          podAffinityTerm: {
            labelSelector: { matchExpressions: [{ key: 'secrity', values: ['S1'] }] },
            topologyKey: 'kubernetes.io/hostname',
          },
        },
      ],
    },
  },
};

let handle: RendererHandle;
let builtins: Definition[];

beforeAll(async () => {
  handle = createRenderer();
  builtins = await loadBuiltinDefinitions(projectRoot());
});
afterAll(() => handle.close());

const names = (kind: Definition['kind']) =>
  builtins.filter((d) => d.kind === kind).map((d) => d.metadata.name!);

async function render(component: Record<string, unknown>) {
  const app = {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata: { name: 'docs' },
    spec: { components: [{ name: 'app', ...component }] },
  };
  return renderSources([{ path: 'app.yaml', text: stringify(app) }], handle.renderer, { builtins });
}

describe('built-in definitions with the properties of KubeVela examples', () => {
  it('covers every built-in definition', () => {
    expect(names('ComponentDefinition').filter((n) => !COMPONENTS[n])).toEqual([]);
    expect(names('TraitDefinition').filter((n) => !TRAITS[n])).toEqual([]);
  });

  it.each(Object.entries(COMPONENTS))('component %s renders', async (type, properties) => {
    const result = await render({ type, properties });
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.warnings.map((e) => e.message)).toEqual([]);
    expect(result.apps[0].objects.length).toBeGreaterThan(0);
  });

  it.each(Object.entries(TRAITS))('trait %s renders on a webservice', async (type, properties) => {
    const result = await render({
      type: 'webservice',
      properties: COMPONENTS.webservice,
      traits: [{ type, properties }],
    });
    expect(result.errors.map((e) => e.message)).toEqual([]);
    expect(result.warnings.map((e) => e.message)).toEqual([]);
  });
});
