import { Command, Option } from 'commander';
import { addTargetOptions } from '../target-options.js';

export interface StatusFlags {
  namespace?: string;
  output: 'tree' | 'yaml' | 'json';
  watch: boolean;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam status NAME`: the Application (or standalone Component), its components, objects and traits. */
export function registerStatus(program: Command): void {
  const status = program
    .command('status')
    .description(
      'show an Application: components, their objects (kind/name, health, message), traits, revision, conditions',
    )
    .argument('<name>', 'the Application (or standalone Component)')
    .option('-n, --namespace <name>', "its namespace (default: the context's namespace, else default)")
    .addOption(
      new Option('-o, --output <format>', 'output format').choices(['tree', 'yaml', 'json']).default('tree'),
    )
    .option('-w, --watch', 'keep showing the tree as it changes (Ctrl-C stops)', false);
  addTargetOptions(status).action(async (name: string, flags: StatusFlags) => {
    const { runStatus } = await import('./status.action.js');
    process.exitCode = await runStatus(name, flags);
  });
}
