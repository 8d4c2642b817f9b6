import { performance } from 'node:perf_hooks';
import type { BenchResult } from '../types.js';
import { configMap, createNamespace, pool, startBenchServer } from './server.js';

/**
 * Memory for 100k ConfigMaps: RSS and heap growth of the process hosting the
 * server. Creation is capped at 45 s to keep the benchmark under a minute; if
 * the cap is hit, the figures are extrapolated linearly and the detail says so.
 */
const TARGET = 100_000;
const CAP_MS = 45_000;

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

export async function run(): Promise<BenchResult[]> {
  const server = await startBenchServer();
  try {
    await createNamespace(server, 'mem');
    collect();
    const before = process.memoryUsage();
    const started = performance.now();
    let created = 0;
    await pool(TARGET, 32, async (i) => {
      if (performance.now() - started > CAP_MS) return;
      await server.send('POST', '/api/v1/namespaces/mem/configmaps', configMap(`cm-${i}`, i));
      created++;
    });
    collect();
    const after = process.memoryUsage();
    const scale = TARGET / created;
    const mib = (bytes: number) => bytes / 2 ** 20;
    const how =
      created === TARGET
        ? `${TARGET} objects in ${((performance.now() - started) / 1000).toFixed(1)} s`
        : `EXTRAPOLATED from ${created} objects created in ${CAP_MS / 1000} s`;
    const gcNote = (globalThis as { gc?: () => void }).gc ? 'after gc' : 'no --expose-gc: includes garbage';
    return [
      {
        name: 'rss growth for 100k configmaps',
        value: mib(after.rss - before.rss) * scale,
        unit: 'MiB',
        detail: `${how}, ${gcNote}`,
      },
      {
        name: 'heap growth for 100k configmaps',
        value: mib(after.heapUsed - before.heapUsed) * scale,
        unit: 'MiB',
        detail: `${how}, ${gcNote}`,
      },
    ];
  } finally {
    await server.stop();
  }
}
