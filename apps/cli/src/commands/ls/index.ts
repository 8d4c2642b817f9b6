import { Command } from 'commander';
import { addTargetOptions } from '../target-options.js';

export interface LsFlags {
  namespace?: string;
  allNamespaces: boolean;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam ls`: Applications and their components, in vela's columns. */
export function registerLs(program: Command): void {
  const ls = program
    .command('ls')
    .description('list Applications: APP, COMPONENT, TYPE, TRAITS, PHASE, HEALTHY, STATUS, AGE')
    .option('-n, --namespace <name>', "namespace to list (default: the context's namespace, else default)")
    .option('-A, --all-namespaces', 'list every namespace (adds a NAMESPACE column)', false);
  addTargetOptions(ls).action(async (flags: LsFlags) => {
    const { runLs } = await import('./ls.action.js');
    process.exitCode = await runLs(flags);
  });
}
