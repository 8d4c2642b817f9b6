/**
 * `npm run bench [suite ...]`: runs the benchmark suites, prints a table
 * per suite and writes bench/results/<suite>.json (figures, machine, date).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import Table from 'cli-table3';
import type { BenchSuite } from './types.js';

const suites: Record<string, () => Promise<BenchSuite>> = {
  renderer: async () => (await import('./renderer/render.bench.js')).suite,
  'kube-server': async () => (await import('./kube-server/index.js')).suite,
  runtime: async () => (await import('./runtime/runtime.bench.js')).suite,
  controller: async () => (await import('./controller/controller.bench.js')).suite,
  api: async () => (await import('./api/api.bench.js')).suite,
  cli: async () => (await import('./cli/cli.bench.js')).suite,
  containment: async () => (await import('./containment/containment.bench.js')).suite,
};

async function main(): Promise<void> {
  // Suite names; `--name value` pairs are the suites' own options (e.g. `controller --apps 3000`).
  const args = process.argv.slice(2);
  const wanted = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  const names = wanted.length ? wanted : Object.keys(suites);
  for (const name of names) {
    const load = suites[name];
    if (!load) {
      process.stderr.write(`unknown suite "${name}"; suites: ${Object.keys(suites).join(', ')}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`running ${name}...\n`);
    const suite = await load();
    // The machine is shared: the load average during the run goes with the figures.
    const samples = [loadavg()[0]];
    const sampler = setInterval(() => samples.push(loadavg()[0]), 5000);
    const results = await suite.run().finally(() => clearInterval(sampler));
    samples.push(loadavg()[0]);
    const load1m = {
      min: round1(Math.min(...samples)),
      mean: round1(samples.reduce((a, b) => a + b, 0) / samples.length),
      max: round1(Math.max(...samples)),
    };
    const plain = !process.stdout.isTTY; // no escape codes in logs and redirected output
    const table = new Table({
      head: ['benchmark', 'value', 'unit', 'detail'],
      ...(plain ? { style: { head: [], border: [] } } : {}),
    });
    for (const r of results) table.push([r.name, formatValue(r.value), r.unit, r.detail ?? '']);
    process.stdout.write(
      `${table.toString()}\nload average (1 min) during the run: min ${load1m.min}, mean ${load1m.mean}, max ${load1m.max} on ${cpus().length} CPUs\n`,
    );
    const dir = join(process.cwd(), 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const machine = {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      load1m,
    };
    writeFileSync(
      join(dir, `${suite.resultsName ?? name}.json`),
      `${JSON.stringify({ suite: name, date: new Date().toISOString(), machine, results }, null, 2)}\n`,
    );
  }
}

const round1 = (v: number) => Math.round(v * 10) / 10;

function formatValue(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toFixed(4);
}

await main();
