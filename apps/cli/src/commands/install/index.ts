import { Command, Option } from 'commander';
import { addTargetOptions, parseDuration } from '../target-options.js';

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
    .addOption(
      new Option('--timeout <duration>', 'how long to wait (e.g. 90s, 5m)')
        .default(300_000, '5m')
        .argParser(parseDuration),
    );
  addTargetOptions(install).action(async (flags: InstallFlags) => {
    const { runInstall } = await import('./install.action.js');
    process.exitCode = await runInstall(flags);
  });
}
