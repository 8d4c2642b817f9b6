import { Command } from 'commander';
import {
  addEvalLimitOptions,
  addFileOption,
  addTargetOptions,
  type EvalLimitFlags,
} from '../target-options.js';

export interface DiffFlags extends EvalLimitFlags {
  file: string[];
  namespace?: string;
  strict: boolean;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam diff`: what `oam up` would change, as `kubectl diff` shows it (exit 0 none, 1 changes, >1 error). */
export function registerDiff(program: Command): void {
  const diff = addFileOption(
    program
      .command('diff')
      .description(
        'show what `oam up -f` would change on the target (server-side dry run), as a unified diff per object; exit 0 no changes, 1 changes, >1 an error',
      ),
  )
    .option(
      '-n, --namespace <name>',
      "namespace for objects that name none (default: the context's namespace, else default)",
    )
    .option('--strict', 'treat unknown properties as errors, not warnings', false);
  addTargetOptions(addEvalLimitOptions(diff)).action(async (flags: DiffFlags) => {
    const { runDiff } = await import('./diff.action.js');
    process.exitCode = await runDiff(flags);
  });
}
