import { Command } from 'commander';
import { addTargetOptions, timeoutOption } from '../target-options.js';

export interface DeleteFlags {
  namespace?: string;
  wait: boolean;
  timeout: number;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam delete NAME`: the Application (the controller removes what it applied), or a standalone Component. */
export function registerDelete(program: Command): void {
  const del = program
    .command('delete')
    .description('delete an Application (the controller removes what it applied) or a standalone Component')
    .argument('<name>', 'the Application (or standalone Component)')
    .option('-n, --namespace <name>', "its namespace (default: the context's namespace, else default)")
    .option('--wait', 'wait until it and everything it applied are gone', false)
    .addOption(timeoutOption('how long --wait waits', 120_000, '2m'));
  addTargetOptions(del).action(async (name: string, flags: DeleteFlags) => {
    const { runDelete } = await import('./delete.action.js');
    process.exitCode = await runDelete(name, flags);
  });
}
