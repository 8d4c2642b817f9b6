import { performance } from 'node:perf_hooks';
import { median, percentile, type BenchResult } from '../types.js';
import { createNamespace, startBenchServer } from './server.js';

/**
 * Watch delivery latency with 100 open watchers: the time from sending a
 * write to each watcher receiving its event (client and server share one
 * process and clock). Writes are paced, one at a time; median over 3 runs.
 */
const WATCHERS = 100;
const WRITES = 200;
const RUNS = 3;

export async function run(): Promise<BenchResult[]> {
  const server = await startBenchServer();
  try {
    const p50s: number[] = [];
    const p99s: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const ns = `watch-${r}`;
      await createNamespace(server, ns);
      const listed = await server.send('GET', `/api/v1/namespaces/${ns}/configmaps`);
      const sentAt = new Map<string, number>();
      const latencies: number[] = [];
      const closers = await Promise.all(
        Array.from({ length: WATCHERS }, () =>
          server.watch(
            `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${listed.body.metadata.resourceVersion}`,
            (ev, at) => {
              const sent = sentAt.get(ev.object?.metadata?.name);
              if (ev.type === 'ADDED' && sent !== undefined) latencies.push(at - sent);
            },
          ),
        ),
      );
      for (let i = 0; i < WRITES; i++) {
        const name = `cm-${i}`;
        sentAt.set(name, performance.now());
        await server.send('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } });
      }
      const deadline = Date.now() + 20_000;
      while (latencies.length < WATCHERS * WRITES && Date.now() < deadline)
        await new Promise((res) => setTimeout(res, 20));
      for (const close of closers) close();
      if (latencies.length < WATCHERS * WRITES) {
        throw new Error(`only ${latencies.length} of ${WATCHERS * WRITES} watch events arrived within 20 s`);
      }
      p50s.push(percentile(latencies, 50));
      p99s.push(percentile(latencies, 99));
    }
    const detail = `${WATCHERS} watchers x ${WRITES} creates, median of ${RUNS} runs`;
    return [
      { name: 'watch delivery latency p50', value: median(p50s), unit: 'ms', detail },
      { name: 'watch delivery latency p99', value: median(p99s), unit: 'ms', detail },
    ];
  } finally {
    await server.stop();
  }
}
