/**
 * The controller as a process of its own (`node dist/apps/controller/src/main.js`, e.g. a
 * container's entry point): the current kubeconfig, or the in-cluster service account.
 * `oam controller` is the same with flags.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { startController } from './start-controller.js';

function fail(err: unknown): never {
  process.stderr.write(`oam controller: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

const kubeConfig = new KubeConfig();
try {
  kubeConfig.loadFromDefault();
} catch (err) {
  fail(err);
}
startController({
  kubeConfig,
  systemNamespace: process.env.OAM_SYSTEM_NAMESPACE || undefined,
  watchNamespaces: process.env.OAM_WATCH_NAMESPACES?.split(',').filter(Boolean),
}).then((controller) => {
  let stopping = false;
  const stop = () => {
    stopping = true;
    void controller.stop().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Stopped by itself (lost leadership): exit non-zero so it is restarted.
  void controller.done.then(() => stopping || process.exit(1));
}, fail);
