/**
 * Templates a hostile tenant would write, and the Applications that run them: one of each kind
 * of runaway the renderer must contain. Shared by `npm run bench containment` and the
 * containment end-to-end suite (test/controller/containment.e2e.ts), so both try the same bombs.
 * Each definition is namespace-local: creating one needs no rights beyond the tenant's namespace.
 */
import type { KubeObject } from '#kube-core';

export type RunawayKind = 'handlebars-nesting' | 'cue-cpu' | 'cue-memory' | 'builtin-storage' | 'two-at-once';

/** Which limit stops it. */
export type LimitKind = 'cpu' | 'memory';

export interface Runaway {
  kind: RunawayKind;
  limit: LimitKind;
  /** The engine whose workers it occupies. */
  engine: 'cue' | 'handlebars';
  /** Definitions to create in the tenant's namespace first (none for a built-in). */
  definitions(namespace: string): KubeObject[];
  /** The Applications that run the bomb. */
  apps(namespace: string): KubeObject[];
}

const componentDefinition = (namespace: string, name: string, schematic: unknown): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'ComponentDefinition',
  metadata: { name, namespace },
  spec: { workload: { definition: { apiVersion: 'v1', kind: 'ConfigMap' } }, schematic },
});

const application = (
  namespace: string,
  name: string,
  type: string,
  properties: Record<string, unknown>,
  traits?: unknown[],
): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name, namespace },
  spec: { components: [{ name, type, properties, ...(traits ? { traits } : {}) }] },
});

/** Four nested `each` over a 300-item list: 8.1e9 iterations, little output. */
const HANDLEBARS_NESTING = `output:
  apiVersion: v1
  kind: ConfigMap
  data:
    x: "{{#each parameter.items}}{{#each ../parameter.items}}{{#each ../../parameter.items}}{{#each ../../../parameter.items}}{{/each}}{{/each}}{{/each}}{{/each}}"
`;

/** n² comprehension steps that keep nothing: CPU-bound, its memory stays flat (CUE's GC reclaims). */
const CUE_SPIN = `import "list"
parameter: { n: *3000 | int }
_r: list.Range(0, parameter.n, 1)
_x: [for i in _r for j in _r if i*j < 0 {i}]
output: {
  apiVersion: "v1"
  kind: "ConfigMap"
  data: count: "\\(len(_x))"
}
`;

/** n strings of 20 MB joined: memory grows by 20 MB a step (3 GB RSS when unbounded). */
const CUE_HOG = `import "strings"
parameter: { n: *40 | int }
_steps: [for x in strings.Split(strings.Repeat("x", parameter.n), "") {x}]
_parts: [for _ in _steps {strings.Repeat("y", 20000000)}]
output: {
  apiVersion: "v1"
  kind: "ConfigMap"
  data: big: strings.Join(_parts, "")
}
`;

const spinDefinition = (ns: string) => componentDefinition(ns, 'cue-spin', { cue: { template: CUE_SPIN } });

export const RUNAWAYS: readonly Runaway[] = [
  {
    kind: 'handlebars-nesting',
    limit: 'cpu',
    engine: 'handlebars',
    definitions: (ns) => [
      componentDefinition(ns, 'hb-nest', {
        handlebars: {
          parameters: {
            type: 'object',
            properties: { items: { type: 'array', items: { type: 'integer' } } },
          },
          template: HANDLEBARS_NESTING,
        },
      }),
    ],
    apps: (ns) => [application(ns, 'nest', 'hb-nest', { items: [...Array(300).keys()] })],
  },
  {
    kind: 'cue-cpu',
    limit: 'cpu',
    engine: 'cue',
    definitions: (ns) => [spinDefinition(ns)],
    apps: (ns) => [application(ns, 'spin', 'cue-spin', { n: 3000 })],
  },
  {
    kind: 'cue-memory',
    limit: 'memory',
    engine: 'cue',
    definitions: (ns) => [componentDefinition(ns, 'cue-hog', { cue: { template: CUE_HOG } })],
    apps: (ns) => [application(ns, 'hog', 'cue-hog', { n: 40 })],
  },
  {
    // The built-in storage trait needs no definition rights: 20,000 emptyDirs (a 0.8 MB app).
    kind: 'builtin-storage',
    limit: 'cpu',
    engine: 'cue',
    definitions: () => [],
    apps: (ns) => [
      application(ns, 'vols', 'webservice', { image: 'nginx:1.27' }, [
        {
          type: 'storage',
          properties: {
            emptyDir: Array.from({ length: 20_000 }, (_, i) => ({ name: `v${i}`, mountPath: `/v/${i}` })),
          },
        },
      ]),
    ],
  },
  {
    // Two CPU bombs from one namespace at once: they must not hold every worker.
    kind: 'two-at-once',
    limit: 'cpu',
    engine: 'cue',
    definitions: (ns) => [spinDefinition(ns)],
    apps: (ns) => [
      application(ns, 'spin-a', 'cue-spin', { n: 3000 }),
      application(ns, 'spin-b', 'cue-spin', { n: 3001 }),
    ],
  },
];
