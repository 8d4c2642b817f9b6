import { Command, Option } from 'commander';
import { addTargetOptions } from '../target-options.js';

export interface HistoryFlags {
  namespace?: string;
  output: 'table' | 'json';
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam history NAME`: the Application's revisions, which one is live and what each changed. */
export function registerHistory(program: Command): void {
  const history = program
    .command('history')
    .description("list an Application's revisions: REVISION, CREATED, LIVE, CHANGE")
    .argument('<name>', 'the Application')
    .option('-n, --namespace <name>', "its namespace (default: the context's namespace, else default)")
    .addOption(
      new Option('-o, --output <format>', 'output format').choices(['table', 'json']).default('table'),
    );
  addTargetOptions(history).action(async (name: string, flags: HistoryFlags) => {
    const { runHistory } = await import('./history.action.js');
    process.exitCode = await runHistory(name, flags);
  });
}
