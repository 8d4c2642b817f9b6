import { startServer } from '#kube-server';
import type { ServerFlags } from './index.js';

/** Runs until SIGINT/SIGTERM, then shuts down cleanly (watches closed, store flushed). */
export async function runServer(flags: ServerFlags): Promise<number> {
  const server = await startServer({
    host: flags.host,
    port: flags.port,
    stateDir: flags.stateDir,
    historyWindow: flags.historyWindow,
    simulateWorkloads: flags.simulateWorkloads,
    logger: (entry) =>
      process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`),
  });
  process.stdout.write(
    `oam-local API server listening on ${server.url}${flags.simulateWorkloads ? ' (simulated workloads)' : ''}\n` +
      `export KUBECONFIG=${server.kubeconfigPath}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stdout.write(`${signal}: shutting down\n`);
      resolve();
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await server.stop();
  return 0;
}
