import { Command } from 'commander';
import { addTargetOptions, timeoutOption } from '../target-options.js';

export interface InstallFlags {
  image?: string;
  wait: boolean;
  timeout: number;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam install`: deploy/ (CRDs, RBAC, the controller's and the API's Deployments) onto the target cluster. */
export function registerInstall(program: Command): void {
  const install = program
    .command('install')
    .description(
      'install the OAM controller and REST API on a cluster: applies deploy/ (CRDs, RBAC, Deployments) and waits until they are available',
    )
    .option(
      '--image <ref>',
      "the controller's and the API's image (default: the one deploy/kustomization.yaml names)",
    )
    .option('--wait', 'wait until the Deployments are available (the default)', true)
    .option('--no-wait', 'apply and return without waiting')
    .addOption(timeoutOption('how long to wait', 300_000, '5m'));
  addTargetOptions(install).action(async (flags: InstallFlags) => {
    const { runInstall } = await import('./install.action.js');
    process.exitCode = await runInstall(flags);
  });
}
