/**
 * The renderer as a long-running process uses it (`longRunning`: V8 optimises CUE's
 * WebAssembly), measured in a process of its own because that choice is process-wide.
 * Prints LongRunningFigures as JSON; run by render.bench.ts.
 */
import { createRenderer } from '#renderer';
import { loadBuiltinDefinitions, projectRoot } from '#definitions';
import { median } from '../types.js';
import { appNamed, uncachedRenders, type LongRunningFigures } from './app.js';

/** Renders before measuring: a controller has rendered this many after its first few hundred apps. */
const WARMUP = 300;
const RUNS = 50;

const builtins = await loadBuiltinDefinitions(projectRoot());
const handle = createRenderer({ poolSize: 1, longRunning: true });
try {
  await uncachedRenders(handle, appNamed('warm-up'), builtins, WARMUP);
  const { uncached, cpuPerRender } = await uncachedRenders(handle, appNamed('bench'), builtins, RUNS);
  const figures: LongRunningFigures = {
    warmup: WARMUP,
    runs: RUNS,
    uncachedMs: median(uncached),
    cpuMs: cpuPerRender,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} finally {
  await handle.close();
}
