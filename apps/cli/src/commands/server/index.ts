import { Command, InvalidArgumentError, Option } from 'commander';
import { join } from 'node:path';
import { oamHome } from '../../plane/plane.js';
import { addEvalLimitOptions, type EvalLimitFlags } from '../target-options.js';

export { oamHome };

export interface ServerFlags extends EvalLimitFlags {
  port: number;
  host: string;
  stateDir: string;
  simulateWorkloads: boolean;
  historyWindow: number;
  /** Host the OAM controller too (`--no-controller` leaves it out, e.g. for tests that start their own). */
  controller: boolean;
  /** Host the REST API too (`--no-api` leaves it out); it needs the controller's CRDs. */
  api: boolean;
  apiPort: number;
}

/** `oam server`: the local control plane in the foreground; `status` and `stop` for one in the background. */
export function registerServer(program: Command): void {
  const server = program
    .command('server')
    .description(
      'run the local control plane: a Kubernetes-compatible API server (HTTPS, durable state, kubectl works) and the OAM controller',
    )
    .addOption(
      new Option('--port <n>', 'port to listen on (0 = any free port)').default(6443).argParser(parsePort),
    )
    .option(
      '--host <address>',
      'address to listen on (loopback by default; anything else exposes it)',
      '127.0.0.1',
    )
    .option(
      '--state-dir <dir>',
      'where objects, certificates, token and kubeconfig are kept',
      join(oamHome(), 'server'),
    )
    .option('--no-simulate-workloads', 'do not simulate Deployments, Pods and Jobs becoming ready')
    .option('--no-controller', 'serve the API only: no OAM CRDs installed, no controller reconciling')
    .option('--no-api', 'do not start the REST API (started by default with the controller)')
    .addOption(
      new Option('--api-port <n>', 'port of the REST API (0 = any free port)')
        .default(0)
        .argParser(parsePort),
    )
    .addOption(
      new Option('--history-window <n>', 'changes kept for watches (older resourceVersions get 410 Gone)')
        .default(10000)
        .argParser(Number),
    );
  addEvalLimitOptions(server).action(async (flags: ServerFlags) => {
    const { runServer } = await import('./server.action.js');
    process.exitCode = await runServer(flags);
  });

  server
    .command('status')
    .description('show the local plane recorded in $OAM_HOME/plane.json: pid, API server, kubeconfig, health')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (flags: { output: 'text' | 'json' }) => {
      const { runServerStatus } = await import('./status.action.js');
      process.exitCode = await runServerStatus(flags);
    });

  server
    .command('stop')
    .description('stop the local plane running in the background (SIGTERM, then wait until it has exited)')
    .addOption(
      new Option('--timeout <seconds>', 'how long to wait for it to exit').default(30).argParser(seconds),
    )
    .action(async (flags: { timeout: number }) => {
      const { runServerStop } = await import('./status.action.js');
      process.exitCode = await runServerStop(flags);
    });
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port number (0-65535)');
  return n;
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number of seconds');
  return n;
}
