import { performance } from 'node:perf_hooks';
import { median, type BenchResult } from '../types.js';
import { configMap, createNamespace, pool, startBenchServer } from './server.js';

/** Listing 10k ConfigMaps: one full list, and paged by 500 like an informer; median of 5 runs. */
const OBJECTS = 10_000;
const RUNS = 5;

export async function run(): Promise<BenchResult[]> {
  const server = await startBenchServer();
  try {
    await createNamespace(server, 'list');
    await pool(OBJECTS, 32, (i) =>
      server.send('POST', '/api/v1/namespaces/list/configmaps', configMap(`cm-${i}`, i)),
    );
    const full: number[] = [];
    const paged: number[] = [];
    const selected: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      let t = performance.now();
      const all = await server.send('GET', '/api/v1/namespaces/list/configmaps');
      full.push(performance.now() - t);
      if (all.body.items.length !== OBJECTS)
        throw new Error(`list returned ${all.body.items.length} items, expected ${OBJECTS}`);
      t = performance.now();
      let token = '';
      let seen = 0;
      do {
        const page = await server.send(
          'GET',
          `/api/v1/namespaces/list/configmaps?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
        );
        seen += page.body.items.length;
        token = page.body.metadata.continue ?? '';
      } while (token);
      paged.push(performance.now() - t);
      if (seen !== OBJECTS) throw new Error(`paged list returned ${seen} items, expected ${OBJECTS}`);
      t = performance.now();
      await server.send('GET', '/api/v1/namespaces/list/configmaps?labelSelector=shard%3D3');
      selected.push(performance.now() - t);
    }
    return [
      {
        name: 'list 10k configmaps',
        value: median(full),
        unit: 'ms',
        detail: `one request, median of ${RUNS}`,
      },
      {
        name: 'list 10k configmaps, pages of 500',
        value: median(paged),
        unit: 'ms',
        detail: `20 requests, median of ${RUNS}`,
      },
      {
        name: 'list 10k configmaps, label selector (1k match)',
        value: median(selected),
        unit: 'ms',
        detail: `median of ${RUNS}`,
      },
    ];
  } finally {
    await server.stop();
  }
}
