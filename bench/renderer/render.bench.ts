import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRenderer, renderObjects } from '#renderer';
import { loadBuiltinDefinitions, projectRoot } from '#definitions';
import { median, type BenchResult, type BenchSuite } from '../types.js';
import { appNamed, mustRender, uncachedRenders, type LongRunningFigures } from './app.js';

const RUNS = 200;
const THROUGHPUT_APPS = 80;

export const suite: BenchSuite = {
  name: 'renderer',
  async run(): Promise<BenchResult[]> {
    const builtins = await loadBuiltinDefinitions(projectRoot());
    const objects = appNamed('bench');

    // Cold: a new renderer (worker start, CUE init, template compile) rendering once.
    const coldStart = performance.now();
    const cold = createRenderer({ poolSize: 1 });
    await mustRender(() => renderObjects(objects, cold.renderer, { builtins }));
    const coldMs = performance.now() - coldStart;
    await cold.close();

    // As `oam render` renders: V8's baseline compiler only.
    const handle = createRenderer({ poolSize: 1 });
    await mustRender(() => renderObjects(objects, handle.renderer, { builtins }));
    // Warm, uncached: engines and compiled templates warm, every template evaluated again.
    const { uncached, cpuPerRender } = await uncachedRenders(handle, objects, builtins, RUNS / 4);
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
    const variants = Array.from({ length: THROUGHPUT_APPS }, (_, i) => appNamed(`bench-${i}`));
    const started = performance.now();
    await Promise.all(variants.map((v) => mustRender(() => renderObjects(v, pooled.renderer, { builtins }))));
    const rendersPerSecond = (THROUGHPUT_APPS * 1000) / (performance.now() - started);
    await pooled.close();
    // A long-running process (the controller) lets V8 optimise CUE's WebAssembly: a process-wide
    // choice fixed by its first CUE worker, so it is measured in a process of its own.
    const script = fileURLToPath(new URL('./long-running.js', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: projectRoot() });
    const long = JSON.parse(stdout) as LongRunningFigures;
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
        name: 'long-running process, uncached: per component with 3 traits',
        value: long.uncachedMs,
        unit: 'ms',
        detail: `median of ${long.runs} after ${long.warmup} renders; as the controller and API server render (V8 optimises CUE's WebAssembly)`,
      },
      {
        name: 'long-running process, uncached: CPU time per component with 3 traits (all threads)',
        value: long.cpuMs,
        unit: 'ms',
        detail: `mean of ${long.runs}, the optimising compiler's threads included`,
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
