import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { createRenderer, parseSources, renderObjects } from '#renderer';
import { loadBuiltinDefinitions, projectRoot } from '#definitions';
import { median, type BenchResult, type BenchSuite } from '../types.js';

/** One webservice component with three traits: the shape the targets are stated for. */
const APP = `apiVersion: core.oam.dev/v1beta1
kind: Application
metadata: {name: bench, namespace: default}
spec:
  components:
    - name: api
      type: webservice
      properties:
        image: nginx:1.27
        ports: [{port: 8080, expose: true}]
        env: [{name: MODE, value: bench}]
        cpu: 250m
        memory: 256Mi
      traits:
        - type: hpa
          properties: {min: 2, max: 10, cpu: {type: Utilization, value: 70}}
        - type: gateway
          properties: {domain: api.example.com, http: {"/": 8080}}
        - type: labels
          properties: {tier: web}
`;

const RUNS = 200;
const THROUGHPUT_APPS = 80;

export const suite: BenchSuite = {
  name: 'renderer',
  async run(): Promise<BenchResult[]> {
    const builtins = await loadBuiltinDefinitions(projectRoot());
    const { objects, errors } = parseSources([{ path: join('bench', 'app.yaml'), text: APP }]);
    if (errors.length) throw new Error(errors.map((e) => e.message).join('\n'));

    // Cold: a new renderer (worker start, CUE init, template compile) rendering once.
    const coldStart = performance.now();
    const cold = createRenderer({ poolSize: 1 });
    await mustRender(() => renderObjects(objects, cold.renderer, { builtins }));
    const coldMs = performance.now() - coldStart;
    await cold.close();

    const handle = createRenderer({ poolSize: 1 });
    await mustRender(() => renderObjects(objects, handle.renderer, { builtins }));
    // Warm, uncached: engines and compiled templates warm, every template evaluated again.
    const uncached: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let i = 0; i < RUNS / 4; i++) {
      handle.renderer.cache.clear();
      const t = performance.now();
      await mustRender(() => renderObjects(objects, handle.renderer, { builtins }));
      uncached.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const cpuPerRender = (cpu.user + cpu.system) / 1000 / uncached.length;
    // Cache hit: an unchanged app re-rendered (what the controller does on every resync).
    const hits: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await mustRender(() => renderObjects(objects, handle.renderer, { builtins }));
      hits.push(performance.now() - t);
    }
    await handle.close();

    // Throughput: two workers (the controller's pool), distinct apps so nothing is a cache hit.
    const pooled = createRenderer({ poolSize: 2 });
    await mustRender(() => renderObjects(objects, pooled.renderer, { builtins }));
    const variants = Array.from({ length: THROUGHPUT_APPS }, (_, i) => {
      const parsed = parseSources([
        { path: join('bench', `app-${i}.yaml`), text: APP.replace('name: bench', `name: bench-${i}`) },
      ]);
      return parsed.objects;
    });
    const started = performance.now();
    await Promise.all(variants.map((v) => mustRender(() => renderObjects(v, pooled.renderer, { builtins }))));
    const rendersPerSecond = (THROUGHPUT_APPS * 1000) / (performance.now() - started);
    await pooled.close();
    return [
      {
        name: 'cold: first render in a new process (worker start + CUE init + compile)',
        value: coldMs,
        unit: 'ms',
        detail: '1 component, 3 traits',
      },
      {
        name: 'warm, uncached: per component with 3 traits',
        value: median(uncached),
        unit: 'ms',
        detail: `median of ${uncached.length}`,
      },
      {
        name: 'warm, uncached: CPU time per component with 3 traits (all threads)',
        value: cpuPerRender,
        unit: 'ms',
        detail: `mean of ${uncached.length}; steadier than wall time on a busy machine`,
      },
      {
        name: 'warm, cache hit: per component with 3 traits',
        value: median(hits),
        unit: 'ms',
        detail: `median of ${hits.length}`,
      },
      { name: 'cache hit vs uncached', value: median(uncached) / median(hits), unit: 'x faster' },
      {
        name: 'worker pool throughput: apps (1 component, 3 traits) rendered',
        value: rendersPerSecond,
        unit: 'per s',
        detail: `2 workers, ${THROUGHPUT_APPS} distinct apps at once`,
      },
    ];
  },
};

async function mustRender(fn: () => ReturnType<typeof renderObjects>): Promise<void> {
  const r = await fn();
  if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('\n'));
}
