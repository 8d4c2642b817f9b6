import { performance } from 'node:perf_hooks';
import { median, type BenchResult } from '../types.js';
import { configMap, createNamespace, pool, startBenchServer } from './server.js';

/** Creates/s and gets/s of ConfigMaps over HTTPS, 16 requests in flight, median of 3 runs. */
const RUNS = 3;
const CREATES = 2_000;
const GETS = 5_000;
const CONCURRENCY = 16;

export async function run(): Promise<BenchResult[]> {
  const server = await startBenchServer();
  try {
    const createRates: number[] = [];
    const getRates: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const ns = `crud-${r}`;
      await createNamespace(server, ns);
      const t0 = performance.now();
      await pool(CREATES, CONCURRENCY, (i) =>
        server.send('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`cm-${i}`, i)),
      );
      createRates.push(CREATES / ((performance.now() - t0) / 1000));
      const t1 = performance.now();
      await pool(GETS, CONCURRENCY, (i) =>
        server.send('GET', `/api/v1/namespaces/${ns}/configmaps/cm-${i % CREATES}`),
      );
      getRates.push(GETS / ((performance.now() - t1) / 1000));
    }
    const detail = `${CONCURRENCY} in flight, median of ${RUNS} runs: ${createRates.map((r) => r.toFixed(0)).join('/')}`;
    return [
      {
        name: 'configmap creates',
        value: median(createRates),
        unit: 'ops/s',
        detail: `${CREATES} creates, ${detail}`,
      },
      {
        name: 'configmap gets',
        value: median(getRates),
        unit: 'ops/s',
        detail: `${GETS} gets, ${CONCURRENCY} in flight, median of ${RUNS} runs: ${getRates.map((r) => r.toFixed(0)).join('/')}`,
      },
    ];
  } finally {
    await server.stop();
  }
}
