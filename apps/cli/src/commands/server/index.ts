import { Command, InvalidArgumentError, Option } from 'commander';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface ServerFlags {
  port: number;
  host: string;
  stateDir: string;
  simulateWorkloads: boolean;
  historyWindow: number;
  /** Host the OAM controller too (`--no-controller` leaves it out, e.g. for tests that start their own). */
  controller: boolean;
}

/** `OAM_HOME` (default ~/.oam) holds the local control plane's state. */
export function oamHome(): string {
  return process.env.OAM_HOME ?? join(homedir(), '.oam');
}

/** `oam server`: the embedded Kubernetes-compatible API server, in the foreground. */
export function registerServer(program: Command): void {
  program
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
    .addOption(
      new Option('--history-window <n>', 'changes kept for watches (older resourceVersions get 410 Gone)')
        .default(10000)
        .argParser(Number),
    )
    .action(async (flags: ServerFlags) => {
      const { runServer } = await import('./server.action.js');
      process.exitCode = await runServer(flags);
    });
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port number (0-65535)');
  return n;
}
