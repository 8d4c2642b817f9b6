import { ACTORS } from '#api';
import { startServer, type RunningServer } from '#kube-server';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import {
  ensureWritableDir,
  LOG_FILE_ENV,
  planeFile,
  planeState,
  removePlane,
  removeStalePlane,
  staleMessage,
  writePlane,
} from '../../plane/plane.js';
import { ensureLayout } from '../../plane/layout.js';
import { cliVersion } from '../../version.js';
import type { ServerFlags } from './index.js';
import type { LocalApi } from './local-api.js';

/** One JSON line per log entry on stderr: stdout is for what a person (or `eval`) reads. */
const logLine = (entry: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);

/**
 * The local plane in the foreground: the API server and, unless
 * `--no-controller`, the OAM CRDs and the controller reconciling against it.
 * Once it serves, `$OAM_HOME/plane.json` records where it is (clients such as
 * `oam up` read it); it is removed on a clean stop. Runs until SIGINT/SIGTERM,
 * then shuts down cleanly (controller first, then watches closed and the store flushed).
 */
export async function runServer(flags: ServerFlags): Promise<number> {
  const existing = planeState();
  if (existing.state === 'running' && existing.record.pid !== process.pid)
    throw new UserError(
      `a local plane is already running (pid ${existing.record.pid}, ${existing.record.apiServer}); stop it with \`oam server stop\` first`,
    );
  for (const line of ensureLayout()) process.stderr.write(`${line}\n`);
  if (existing.state === 'stale') {
    process.stderr.write(`${staleMessage(existing.record)}\n`);
    removeStalePlane();
  }
  ensureWritableDir(flags.stateDir);

  // Signals during start-up are honoured once it is up (or abandon the start when it fails).
  let signalled: string | undefined;
  let wake: (() => void) | undefined;
  const onSignal = (signal: string) => {
    signalled = signal;
    wake?.();
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));

  const server = await startServer({
    host: flags.host,
    port: flags.port,
    stateDir: flags.stateDir,
    historyWindow: flags.historyWindow,
    simulateWorkloads: flags.simulateWorkloads,
    logger: logLine,
  }).catch((err: unknown) => {
    throw startError(err, flags);
  });
  process.stdout.write(
    `oam-local API server listening on ${server.url}${flags.simulateWorkloads ? ' (simulated workloads: no containers run)' : ''}\n`,
  );
  let controller: { stop(): Promise<void> } | undefined;
  let api: LocalApi | undefined;
  try {
    if (flags.controller) {
      const [{ installOamCrds }, { startController }, { jsonLogger }] = await Promise.all([
        import('./install-crds.js'),
        import('#controller'),
        import('#runtime'),
      ]);
      await installOamCrds(server.kubeConfig);
      controller = await startController({
        kubeConfig: server.kubeConfig,
        logger: jsonLogger({ fields: { logger: ACTORS.controller } }),
        version: cliVersion(),
        evalCpuLimitMs: flags.evalCpuLimit,
        evalMemoryLimitBytes: flags.evalMemoryLimit,
      });
      process.stdout.write('oam controller reconciling Applications (built-in definitions in vela-system)\n');
    }
    if (flags.api && flags.controller) {
      const { startLocalApi } = await import('./local-api.js');
      api = await startLocalApi(server.kubeConfig, flags);
      process.stdout.write(`oam REST API on ${api.url} (bearer token in ${api.tokensFile})\n`);
      process.stdout.write(`oam web catalog on ${api.url}/ui/ (sign in with that token)\n`);
    } else if (flags.api)
      process.stdout.write('REST API not started: it needs the controller (--no-controller)\n');
  } catch (err) {
    await api?.stop();
    await controller?.stop();
    await server.stop();
    throw err;
  }
  record(server, flags, api);
  process.stdout.write(`export KUBECONFIG=${server.kubeconfigPath}\n`);
  if (!signalled) await new Promise<void>((resolve) => (wake = resolve));
  process.stderr.write(`${signalled}: shutting down\n`);
  try {
    await api?.stop();
    await controller?.stop();
    await server.stop();
  } finally {
    removePlane(process.pid);
  }
  return 0;
}

function record(server: RunningServer, flags: ServerFlags, api: LocalApi | undefined): void {
  try {
    writePlane({
      pid: process.pid,
      apiServer: server.url,
      kubeconfig: server.kubeconfigPath,
      stateDir: flags.stateDir,
      version: cliVersion(),
      startedAt: new Date().toISOString(),
      controller: flags.controller,
      simulatedWorkloads: flags.simulateWorkloads,
      logFile: process.env[LOG_FILE_ENV] || undefined,
      ...(api ? { api: { url: api.url, tokensFile: api.tokensFile } } : {}),
    });
  } catch (err) {
    // Serving without the record is still useful in the foreground; say why clients will not find it.
    process.stderr.write(`warning: cannot write ${planeFile()}: ${(err as Error).message}\n`);
  }
}

/** The start-up failures a person can fix, as one line each. */
function startError(err: unknown, flags: ServerFlags): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE')
    return new UserError(
      `port ${flags.port} on ${flags.host} is in use (another oam server, or another program): pass --port N, or --port 0 for any free port`,
      EXIT.CLUSTER,
    );
  if (code === 'EADDRNOTAVAIL')
    return new UserError(`cannot listen on ${flags.host}: no such local address`, EXIT.INVALID);
  if (code === 'EACCES' && typeof (err as { port?: unknown }).port === 'number')
    return new UserError(
      `no permission to listen on port ${flags.port}: ports below 1024 need privileges; pass --port N or --port 0`,
      EXIT.CLUSTER,
    );
  if (code === 'EACCES' || code === 'EPERM')
    return new UserError(
      `cannot write the state directory ${flags.stateDir}: ${(err as Error).message}`,
      EXIT.CLUSTER,
    );
  return err;
}
