import { ACTORS } from '#api';
import { jsonLogger, KubeApiError } from '#runtime';
import { ControllerStartError, startController } from '#controller';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import { isConnectionError, loadKubeConfig } from '../../cluster/kubeconfig.js';
import type { ControllerFlags } from './index.js';

/** Runs until SIGINT/SIGTERM (exit 0), or until the manager stops by itself (exit 1). */
export async function runController(flags: ControllerFlags): Promise<number> {
  const kubeConfig = loadKubeConfig(flags);
  const logger = jsonLogger({ level: flags.logLevel, fields: { logger: ACTORS.controller } });
  let controller;
  try {
    controller = await startController({
      kubeConfig,
      logger,
      workers: flags.workers,
      qps: flags.qps,
      burst: flags.burst,
      systemNamespace: flags.systemNamespace,
      watchNamespaces: flags.watchNamespace ?? [],
      resyncPeriodMs: flags.resyncPeriod * 1000,
      revisionLimit: flags.revisionLimit,
      dependsOnTimeoutMs: flags.dependsOnTimeout,
      evalCpuLimitMs: flags.evalCpuLimit,
      evalMemoryLimitBytes: flags.evalMemoryLimit,
      version: process.env.npm_package_version,
      leaderElection: flags.leaderElect && {
        leaseDurationMs: flags.leaderElectLeaseDuration,
        renewDeadlineMs: flags.leaderElectRenewDeadline,
        retryPeriodMs: flags.leaderElectRetryPeriod,
      },
      metricsPort: flags.metricsPort,
      metricsHost: flags.metricsHost,
    });
  } catch (err) {
    if (err instanceof Error && /leader election needs/.test(err.message))
      throw new UserError(`--leader-elect-*: ${err.message.replace('leader election needs ', 'need ')}`);
    if ((err as NodeJS.ErrnoException)?.code === 'EADDRINUSE')
      throw new UserError(
        `--metrics-port ${flags.metricsPort} on ${flags.metricsHost} is in use: pass another port, or 0 for any free one`,
        EXIT.CLUSTER,
      );
    if (err instanceof ControllerStartError || err instanceof KubeApiError || isConnectionError(err))
      throw new UserError(
        `cannot start the controller against ${kubeConfig.getCurrentCluster()?.server}: ${(err as Error).message}`,
        EXIT.CLUSTER,
      );
    throw err;
  }
  const stopped = await new Promise<'signal' | 'stopped'>((resolve) => {
    process.once('SIGINT', () => resolve('signal'));
    process.once('SIGTERM', () => resolve('signal'));
    void controller.done.then(() => resolve('stopped'));
  });
  logger.info(stopped === 'signal' ? 'shutting down' : 'manager stopped by itself; exiting');
  await controller.stop();
  return stopped === 'signal' ? 0 : 1;
}
