import { eventually } from '#kube-core';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import {
  isAlive,
  logFile,
  planeFile,
  planeState,
  removeStalePlane,
  staleMessage,
} from '../../plane/plane.js';
import { planeAnswers } from '../../plane/probe.js';

/** `oam server status`: exit 0 when a plane runs and answers, 3 when none runs (or it does not answer). */
export async function runServerStatus(flags: { output: 'text' | 'json' }): Promise<number> {
  const state = planeState();
  if (state.state !== 'running') {
    if (state.state === 'stale') {
      process.stderr.write(`${staleMessage(state.record)}\n`);
      removeStalePlane();
    }
    if (flags.output === 'json') process.stdout.write(`${JSON.stringify({ running: false }, null, 2)}\n`);
    else process.stdout.write(`no local plane is running (start one with \`oam up\` or \`oam server\`)\n`);
    return EXIT.CLUSTER;
  }
  const { record } = state;
  const probe = await planeAnswers(record);
  if (flags.output === 'json') {
    process.stdout.write(`${JSON.stringify({ running: true, answers: probe.ok, ...record }, null, 2)}\n`);
  } else {
    const rows: [string, string][] = [
      ['pid', String(record.pid)],
      ['API server', `${record.apiServer} (${probe.ok ? 'answers' : `does not answer: ${probe.error}`})`],
      ['kubeconfig', record.kubeconfig],
      ['controller', record.controller ? 'running in the plane' : 'not hosted (--no-controller)'],
      [
        'REST API',
        record.api ? `${record.api.url} (bearer token in ${record.api.tokensFile})` : 'not running',
      ],
      ['web catalog', record.api ? `${record.api.url}/ui/` : 'not running'],
      ['workloads', record.simulatedWorkloads ? 'simulated (no containers run)' : 'not simulated'],
      ['version', record.version],
      ['started', record.startedAt],
      ['state', record.stateDir],
      ['logs', record.logFile ?? 'its own stderr (started in the foreground)'],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    process.stdout.write(`local plane running (${planeFile()})\n`);
    for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
  }
  return probe.ok ? EXIT.OK : EXIT.CLUSTER;
}

/** `oam server stop`: SIGTERM, then wait until the process has gone (it removes plane.json itself). */
export async function runServerStop(flags: { timeout: number }): Promise<number> {
  const state = planeState();
  if (state.state === 'none') {
    process.stdout.write('no local plane is running\n');
    return EXIT.OK;
  }
  if (state.state === 'stale') {
    process.stdout.write(`${staleMessage(state.record)}\n`);
    removeStalePlane();
    return EXIT.OK;
  }
  const { pid, apiServer } = state.record;
  try {
    process.kill(pid, 'SIGTERM');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EPERM')
      throw new UserError(
        `no permission to stop the local plane (pid ${pid} belongs to another user)`,
        EXIT.CLUSTER,
      );
    throw err;
  }
  try {
    await eventually(() => !isAlive(pid), `pid ${pid} to exit`, {
      timeoutMs: flags.timeout * 1000,
      intervalMs: 50,
    });
  } catch {
    throw new UserError(
      `the local plane (pid ${pid}) did not exit within ${flags.timeout} s of SIGTERM; see ${state.record.logFile ?? logFile()}, or kill -9 ${pid}`,
      EXIT.CLUSTER,
    );
  }
  // A clean exit removed the record; a crash on the way out may have left it.
  if (planeState().state === 'stale') removeStalePlane();
  process.stdout.write(`stopped the local plane (pid ${pid}, ${apiServer})\n`);
  return EXIT.OK;
}
