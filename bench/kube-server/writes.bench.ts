import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, type BenchResult } from '../types.js';
import { childClient, cpuMs, startChild, stopChild } from './child.js';
import { configMap, createNamespace, pool } from './server.js';

/**
 * Writes/s through the embedded server measured from outside: `oam server --no-controller` in its
 * own process (as `oam up` runs it, workloads simulated), ConfigMap creates and merge patches from
 * this process, 16 and 64 requests in flight. The server's CPU time per write (user + sys, from
 * /proc) is the figure that holds on a shared machine; writes/s moves with the load.
 */
const RUNS = 3;
const CREATES = 3_000;
const CONCURRENCY = [16, 64];

interface Sample {
  rate: number;
  cpuMs: number;
}

export async function run(): Promise<BenchResult[]> {
  const stateDir = mkdtempSync(join(tmpdir(), 'oam-bench-writes-'));
  const server = await startChild(stateDir);
  const client = childClient(server.kubeconfig);
  const results: BenchResult[] = [];
  try {
    for (const inFlight of CONCURRENCY) {
      const creates: Sample[] = [];
      const patches: Sample[] = [];
      for (let r = 0; r < RUNS; r++) {
        const ns = `writes-${inFlight}-${r}`;
        await createNamespace(client, ns);
        const path = `/api/v1/namespaces/${ns}/configmaps`;
        creates.push(
          await measure(server.proc, CREATES, inFlight, (i) =>
            client.send('POST', path, configMap(`cm-${i}`, i)),
          ),
        );
        patches.push(
          await measure(server.proc, CREATES, inFlight, (i) =>
            client.send(
              'PATCH',
              `${path}/cm-${i}`,
              { data: { patched: String(i) } },
              'application/merge-patch+json',
            ),
          ),
        );
      }
      results.push(...report(`configmap creates, ${inFlight} in flight`, creates));
      results.push(...report(`configmap merge patches, ${inFlight} in flight`, patches));
    }
    return results;
  } finally {
    client.close();
    await stopChild(server.proc);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

async function measure(
  proc: ChildProcess,
  count: number,
  inFlight: number,
  task: (i: number) => Promise<unknown>,
): Promise<Sample> {
  const cpu0 = cpuMs(proc.pid!);
  const t0 = performance.now();
  await pool(count, inFlight, task);
  const seconds = (performance.now() - t0) / 1000;
  return { rate: count / seconds, cpuMs: cpuMs(proc.pid!) - cpu0 };
}

function report(name: string, samples: Sample[]): BenchResult[] {
  const detail = `${CREATES} writes from another process, median of ${RUNS} runs`;
  return [
    {
      name: `${name}: writes/s`,
      value: median(samples.map((s) => s.rate)),
      unit: 'ops/s',
      detail: `${detail}: ${samples.map((s) => s.rate.toFixed(0)).join('/')}`,
    },
    {
      name: `${name}: server CPU per write`,
      value: median(samples.map((s) => (s.cpuMs * 1000) / CREATES)),
      unit: 'µs',
      detail: `user + sys of the server process; ${detail}`,
    },
  ];
}
