/**
 * `npm run bench cli`: the `oam` command as a user runs it (the built
 * bin/oam.js in a child process, wall time): `oam --help`; `oam up -f
 * examples/hello` to healthy with the local plane already running (the app
 * deleted before each run, so every run creates it and waits for it), and the
 * same up again with nothing to change; and from cold: no plane running and a
 * fresh OAM_HOME (certificates, state, CRDs, the built-in definitions), as on
 * a fresh clone. Medians; the load average is in each detail, since these
 * machines are shared.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, type BenchResult, type BenchSuite } from '../types.js';

const root = process.cwd();

function env(home: string): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, OAM_HOME: home, HOME: home };
  for (const key of ['KUBECONFIG', 'FORCE_COLOR', 'NO_COLOR', 'npm_package_version']) delete e[key];
  return e;
}

/** Runs `oam ARGS` to completion; its wall time in ms. A failure stops the bench (a figure of a failure means nothing). */
function oam(home: string, args: string[], expectCode = 0): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin', 'oam.js'), ...args], {
    cwd: root,
    env: env(home),
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (r.status !== expectCode)
    throw new Error(
      `oam ${args.join(' ')}: exit ${r.status}, expected ${expectCode}\n${r.stdout}${r.stderr}`,
    );
  return ms;
}

function times(n: number, run: () => number, between: () => void = () => undefined): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    between();
    out.push(run());
  }
  return out;
}

const load = () => `load average ${loadavg()[0].toFixed(1)} (1 min)`;
const range = (xs: number[]) => `min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)} ms`;

function result(name: string, xs: number[], what: string): BenchResult {
  return {
    name,
    value: median(xs),
    unit: 'ms',
    detail: `${xs.length} runs (${range(xs)}), ${what}; ${load()}`,
  };
}

export const suite: BenchSuite = {
  name: 'cli',
  async run(): Promise<BenchResult[]> {
    const runs = Number(process.env.BENCH_CLI_RUNS ?? 7);
    const coldRuns = Number(process.env.BENCH_CLI_COLD_RUNS ?? 3);
    const results: BenchResult[] = [];
    const scratch = mkdtempSync(join(tmpdir(), 'oam-bench-cli-'));
    try {
      oam(scratch, ['--help']); // the first run reads the files from disk
      results.push(
        result(
          'oam --help',
          times(runs, () => oam(scratch, ['--help'])),
          'prints the command list',
        ),
      );

      const home = mkdtempSync(join(tmpdir(), 'oam-bench-cli-warm-'));
      try {
        oam(home, ['up', '-f', 'examples/hello']); // starts the plane
        const warm = times(
          runs,
          () => oam(home, ['up', '-f', 'examples/hello']),
          () => oam(home, ['delete', 'hello', '--wait']),
        );
        results.push(
          result(
            'oam up examples/hello, plane running',
            warm,
            'app created, waited for until healthy (goal ≤ 3000 ms)',
          ),
        );
        const unchanged = times(runs, () => oam(home, ['up', '-f', 'examples/hello']));
        results.push(
          result('oam up examples/hello, unchanged', unchanged, 'already healthy, nothing to change'),
        );
      } finally {
        spawnSync(process.execPath, [join(root, 'bin', 'oam.js'), 'server', 'stop'], { env: env(home) });
        rmSync(home, { recursive: true, force: true });
      }

      const cold = times(coldRuns, () => {
        const fresh = mkdtempSync(join(tmpdir(), 'oam-bench-cli-cold-'));
        try {
          return oam(fresh, ['up', '-f', 'examples/hello']);
        } finally {
          spawnSync(process.execPath, [join(root, 'bin', 'oam.js'), 'server', 'stop'], { env: env(fresh) });
          rmSync(fresh, { recursive: true, force: true });
        }
      });
      results.push(
        result(
          'oam up examples/hello, cold',
          cold,
          'no plane running, fresh OAM_HOME: starts the plane, then healthy',
        ),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return results;
  },
};
