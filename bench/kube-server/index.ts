import type { BenchResult, BenchSuite } from '../types.js';
import { run as apps } from './apps.bench.js';
import { run as crud } from './crud.bench.js';
import { run as list } from './list.bench.js';
import { run as memory } from './memory.bench.js';
import { run as validation } from './validation.bench.js';
import { run as watch } from './watch.bench.js';
import { run as writes } from './writes.bench.js';

/** The embedded API server's benchmarks (issues 4 and 15), each on a fresh server, each under a minute. */
export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const bench of [writes, apps, crud, list, watch, memory, validation]) results.push(...(await bench()));
  return results;
}

export const suite: BenchSuite = { name: 'kube-server', run };
