import { Command } from 'commander';
import { addTargetOptions } from '../target-options.js';

export interface UninstallFlags {
  force: boolean;
  purge: boolean;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam uninstall`: removes what `oam install` applied, except CRDs and user objects unless --purge. */
export function registerUninstall(program: Command): void {
  const uninstall = program
    .command('uninstall')
    .description(
      'remove the OAM controller and its RBAC from a cluster; CRDs, Applications and definitions stay unless --purge',
    )
    .option(
      '--force',
      'remove the controller even while Applications exist (their cleanup then waits for a controller)',
      false,
    )
    .option(
      '--purge',
      'also remove the OAM CRDs (and with them every OAM object) and the oam-system namespace',
      false,
    );
  addTargetOptions(uninstall).action(async (flags: UninstallFlags) => {
    const { runUninstall } = await import('./uninstall.action.js');
    process.exitCode = await runUninstall(flags);
  });
}
