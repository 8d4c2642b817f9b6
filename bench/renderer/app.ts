import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { parseSources, renderObjects, type RendererHandle } from '#renderer';
import type { loadBuiltinDefinitions } from '#definitions';

/** One webservice component with three traits: the application the render benchmarks measure. */
export const APP = `apiVersion: core.oam.dev/v1beta1
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

type Builtins = Awaited<ReturnType<typeof loadBuiltinDefinitions>>;
type Objects = ReturnType<typeof parseSources>['objects'];

/** The bench app under another name (distinct apps share no render-cache entry). */
export function appNamed(name: string): Objects {
  const { objects, errors } = parseSources([
    { path: join('bench', `${name}.yaml`), text: APP.replace('name: bench', `name: ${name}`) },
  ]);
  if (errors.length) throw new Error(errors.map((e) => e.message).join('\n'));
  return objects;
}

export async function mustRender(fn: () => ReturnType<typeof renderObjects>): Promise<void> {
  const r = await fn();
  if (r.errors.length) throw new Error(r.errors.map((e) => e.message).join('\n'));
}

/** `runs` renders of `objects` with the render cache emptied before each: wall times, and CPU per render. */
export async function uncachedRenders(
  handle: RendererHandle,
  objects: Objects,
  builtins: Builtins,
  runs: number,
): Promise<{ uncached: number[]; cpuPerRender: number }> {
  const uncached: number[] = [];
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    handle.renderer.cache.clear();
    const t = performance.now();
    await mustRender(() => renderObjects(objects, handle.renderer, { builtins }));
    uncached.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { uncached, cpuPerRender: (cpu.user + cpu.system) / 1000 / runs };
}

/** What ./long-running.ts prints. */
export interface LongRunningFigures {
  warmup: number;
  runs: number;
  uncachedMs: number;
  cpuMs: number;
}
