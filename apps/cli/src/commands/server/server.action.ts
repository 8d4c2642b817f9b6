import { startServer } from '#kube-server';
import type { ServerFlags } from './index.js';

/** One JSON line per log entry on stderr: stdout is for what a person (or `eval`) reads. */
const logLine = (entry: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);

/**
 * The local plane in the foreground: the API server and, unless
 * `--no-controller`, the OAM CRDs and the controller reconciling against it.
 * Runs until SIGINT/SIGTERM, then shuts down cleanly (controller first, then
 * watches closed and the store flushed).
 */
export async function runServer(flags: ServerFlags): Promise<number> {
  const server = await startServer({
    host: flags.host,
    port: flags.port,
    stateDir: flags.stateDir,
    historyWindow: flags.historyWindow,
    simulateWorkloads: flags.simulateWorkloads,
    logger: logLine,
  });
  process.stdout.write(
    `oam-local API server listening on ${server.url}${flags.simulateWorkloads ? ' (simulated workloads: no containers run)' : ''}\n`,
  );
  let controller: { stop(): Promise<void> } | undefined;
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
        logger: jsonLogger({ fields: { logger: 'oam-controller' } }),
        version: process.env.npm_package_version,
      });
      process.stdout.write('oam controller reconciling Applications (built-in definitions in vela-system)\n');
    }
  } catch (err) {
    await server.stop();
    throw err;
  }
  process.stdout.write(`export KUBECONFIG=${server.kubeconfigPath}\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`${signal}: shutting down\n`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await controller?.stop();
  await server.stop();
  return 0;
}
