/**
 * `npm run bench cli`: the `oam` command as a user runs it (the built
 * bin/oam.js in a child process, wall time): `oam --help`; `oam up -f
 * examples/hello` to healthy with the local plane already running (the app
 * deleted before each run, so every run creates it and waits for it), and the
 * same up again with nothing to change; and from cold: no plane running and a
 * fresh OAM_HOME (certificates, state, CRDs, the built-in definitions), as on
 * a fresh clone. Medians of wall time; each detail adds the median CPU time
 * of the `oam` process itself (user + system, from /usr/bin/time: its own
 * work, which load inflates less) and the load average, since these machines
 * are shared.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, type BenchResult, type BenchSuite } from '../types.js';

const root = process.cwd();

function env(home: string): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, OAM_HOME: home, HOME: home };
  for (const key of ['KUBECONFIG', 'FORCE_COLOR', 'NO_COLOR', 'npm_package_version']) delete e[key];
  return e;
}

const TIME = '/usr/bin/time';
const hasTime = existsSync(TIME);
/** CPU time (user + system, ms) of each run, by the command it ran: the CLI's own work, less sensitive to load than wall time. */
const cpu = new Map<string, number[]>();

/**
 * Runs `oam ARGS` to completion; its wall time in ms (and its CPU time,
 * through /usr/bin/time, when there is one). A failure stops the bench (a
 * figure of a failure means nothing).
 */
function oam(home: string, args: string[], expectCode = 0): number {
  const command = [process.execPath, join(root, 'bin', 'oam.js'), ...args];
  const started = performance.now();
  const r = hasTime
    ? spawnSync(TIME, ['-f', 'oam-bench-cpu %U %S', ...command], {
        cwd: root,
        env: env(home),
        encoding: 'utf8',
      })
    : spawnSync(command[0], command.slice(1), { cwd: root, env: env(home), encoding: 'utf8' });
  const ms = performance.now() - started;
  if (r.status !== expectCode)
    throw new Error(
      `oam ${args.join(' ')}: exit ${r.status}, expected ${expectCode}\n${r.stdout}${r.stderr}`,
    );
  const used = /oam-bench-cpu ([\d.]+) ([\d.]+)/.exec(r.stderr);
  if (used) {
    const key = args.join(' ');
    cpu.set(key, [...(cpu.get(key) ?? []), (Number(used[1]) + Number(used[2])) * 1000]);
  }
  return ms;
}

/** `n` timed runs of `oam ARGS`; `around` runs each one (e.g. in a fresh OAM_HOME), `before` untimed before each. */
function series(
  n: number,
  args: string[],
  around: (run: () => number) => number,
  before: () => void = () => undefined,
): number[] {
  cpu.delete(args.join(' ')); // only the timed runs count
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    before();
    out.push(around(() => oam(currentHome, args)));
  }
  return out;
}

/** The OAM_HOME the series' runs use (set by `inHome`). */
let currentHome = '';
const inHome = (home: string) => (run: () => number) => {
  currentHome = home;
  return run();
};

const load = () => `load average ${loadavg()[0].toFixed(1)} (1 min)`;
const range = (xs: number[]) => `min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)} ms`;

function result(name: string, xs: number[], what: string, args: string[]): BenchResult {
  const used = cpu.get(args.join(' ')) ?? [];
  cpu.delete(args.join(' '));
  const cpuText = used.length ? `, CLI process CPU ${median(used).toFixed(0)} ms (user+sys)` : '';
  return {
    name,
    value: median(xs),
    unit: 'ms',
    detail: `${xs.length} runs (${range(xs)})${cpuText}, ${what}; ${load()}`,
  };
}

function stopPlane(home: string): void {
  spawnSync(process.execPath, [join(root, 'bin', 'oam.js'), 'server', 'stop'], { env: env(home) });
  rmSync(home, { recursive: true, force: true });
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
      const help = ['--help'];
      results.push(
        result('oam --help', series(runs, help, inHome(scratch)), 'prints the command list', help),
      );

      const up = ['up', '-f', 'examples/hello'];
      const home = mkdtempSync(join(tmpdir(), 'oam-bench-cli-warm-'));
      try {
        oam(home, up); // starts the plane
        const warm = series(runs, up, inHome(home), () => oam(home, ['delete', 'hello', '--wait']));
        results.push(
          result(
            'oam up examples/hello, plane running',
            warm,
            'app created, waited for until healthy (goal ≤ 3000 ms)',
            up,
          ),
        );
        const unchanged = series(runs, up, inHome(home));
        results.push(
          result('oam up examples/hello, unchanged', unchanged, 'already healthy, nothing to change', up),
        );
      } finally {
        stopPlane(home);
      }

      const cold = series(coldRuns, up, (run) => {
        const fresh = mkdtempSync(join(tmpdir(), 'oam-bench-cli-cold-'));
        try {
          return inHome(fresh)(run);
        } finally {
          stopPlane(fresh);
        }
      });
      results.push(
        result(
          'oam up examples/hello, cold',
          cold,
          'no plane running, fresh OAM_HOME: starts the plane, then healthy',
          up,
        ),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    return results;
  },
};
