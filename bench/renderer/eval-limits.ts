/**
 * The figures behind the default evaluation limits (DEFAULT_EVAL_CPU_LIMIT_MS and
 * DEFAULT_EVAL_MEMORY_LIMIT_BYTES in libs/renderer/src/engines/limits.ts): for every built-in
 * definition, one app rendering it with sample properties (as `oam def vet` makes them), plus
 * the largest realistic properties (a storage trait with 200 volumes, a webservice with 200
 * env vars and 50 ports), each rendered cold (template compiled) and warm. CPU is the worker
 * threads' own (from /proc: V8's helper threads included, so an upper bound); memory is the
 * CUE worker's WebAssembly memory, which only grows, so it is the peak so far.
 *
 *   npm run build && node dist/bench/renderer/eval-limits.js
 */
import { readdirSync } from 'node:fs';
import { threadCpuMs } from '#kube-core';
import {
  inMemorySource,
  RenderCache,
  Renderer,
  TemplateCompiler,
  renderObjects,
  type OamObject,
} from '#renderer';
import type { Definition } from '#api';
import { loadBuiltinDefinitions, projectRoot } from '#definitions';
import { createCueEngine } from '../../libs/renderer/src/engines/cue/index.js';
import { createHandlebarsEngine } from '../../libs/renderer/src/engines/handlebars/index.js';
import { sample } from '../../apps/cli/src/commands/def/vet.js';

/** CPU time of every thread but the main one, in ms. */
function workerCpuMs(): number {
  let total = 0;
  for (const tid of readdirSync('/proc/self/task').map(Number)) {
    if (tid === process.pid) continue;
    total += threadCpuMs(tid) ?? 0;
  }
  return total;
}

const app = (name: string, components: unknown[]): OamObject =>
  ({
    kind: 'Application',
    object: {
      apiVersion: 'core.oam.dev/v1beta1',
      kind: 'Application',
      metadata: { name, namespace: 'default' },
      spec: { components },
    },
    source: inMemorySource(name),
  }) as unknown as OamObject;

const web = (traits: unknown[] = [], properties: Record<string, unknown> = {}) => ({
  name: 'web',
  type: 'webservice',
  properties: { image: 'nginx:1.27', port: 80, ...properties },
  traits,
});

async function main(): Promise<void> {
  const builtins = await loadBuiltinDefinitions(projectRoot());
  const cue = createCueEngine({ timeoutMs: 600_000, poolSize: 1 });
  const handlebars = createHandlebarsEngine({ timeoutMs: 600_000, poolSize: 1 });
  const compiler = new TemplateCompiler({ cue, handlebars });
  const cache = new RenderCache();
  const renderer = new Renderer({ compiler, cache });
  const schemaOf = async (d: Definition) =>
    sample(await compiler.compile(d).parameterSchema()) as Record<string, unknown>;

  const apps: OamObject[] = [];
  for (const d of builtins) {
    const properties = await schemaOf(d);
    if (d.kind === 'ComponentDefinition') {
      const props = d.metadata.name === 'webservice' ? { image: 'nginx', ...properties } : properties;
      apps.push(
        app(`c-${d.metadata.name}`, [
          { name: 'c', type: d.metadata.name, properties: { image: 'busybox', ...props } },
        ]),
      );
    } else apps.push(app(`t-${d.metadata.name}`, [web([{ type: d.metadata.name, properties }])]));
  }
  const volumes = Array.from({ length: 200 }, (_, i) => i);
  apps.push(
    app('storage-200-volumes', [
      web([
        {
          type: 'storage',
          properties: {
            emptyDir: volumes.slice(0, 80).map((i) => ({ name: `e${i}`, mountPath: `/e/${i}` })),
            configMap: volumes.slice(80, 140).map((i) => ({
              name: `c${i}`,
              mountPath: `/c/${i}`,
              data: { [`k${i}`]: 'v'.repeat(200) },
            })),
            pvc: volumes.slice(140).map((i) => ({
              name: `p${i}`,
              mountPath: `/p/${i}`,
              resources: { requests: { storage: '1Gi' } },
            })),
          },
        },
      ]),
    ]),
    app('webservice-200-env-50-ports', [
      web(
        [
          { type: 'scaler', properties: { replicas: 3 } },
          { type: 'gateway', properties: { domain: 'x.example.com', http: { '/': 80 } } },
        ],
        {
          env: volumes.map((i) => ({ name: `VAR_${i}`, value: `value-${i}` })),
          ports: volumes.slice(0, 50).map((i) => ({ port: 8000 + i, expose: true })),
        },
      ),
    ]),
  );

  const rows: string[] = [
    '| app | cold CPU ms | warm CPU ms | CUE memory after (MiB) | result |',
    '| --- | ---: | ---: | ---: | --- |',
  ];
  let maxCpu = 0;
  for (const a of apps) {
    const render = async () => {
      cache.clear();
      const before = workerCpuMs();
      const result = await renderObjects([a], renderer, { builtins });
      return { ms: workerCpuMs() - before, errors: result.errors };
    };
    const cold = await render();
    const warm = await render();
    maxCpu = Math.max(maxCpu, cold.ms, warm.ms);
    const mib = (await cue.memoryBytes()) / 2 ** 20;
    const name = (a.object.metadata as { name: string }).name;
    const result = cold.errors.length ? `errors: ${cold.errors[0].message.slice(0, 80)}` : 'ok';
    rows.push(`| ${name} | ${cold.ms} | ${warm.ms} | ${mib.toFixed(1)} | ${result} |`);
  }
  rows.push(
    '',
    `most CPU for one app: ${maxCpu} ms; CUE memory at the end: ${((await cue.memoryBytes()) / 2 ** 20).toFixed(1)} MiB`,
  );
  process.stdout.write(`${rows.join('\n')}\n`);
  await compiler.close();
}

await main();
