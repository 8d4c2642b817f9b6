import { Command } from 'commander';
import {
  addEvalLimitOptions,
  addFileOption,
  addTargetOptions,
  timeoutOption,
  type EvalLimitFlags,
} from '../target-options.js';

export interface UpFlags extends EvalLimitFlags {
  file: string[];
  namespace?: string;
  wait: boolean;
  timeout: number;
  strict: boolean;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam up`: validate and render locally, apply, wait until healthy, show the status tree. */
export function registerUp(program: Command): void {
  const up = addFileOption(
    program
      .command('up')
      .description(
        'apply Applications, Components, Traits and definitions, then wait until healthy (starts the local plane when there is no kubeconfig)',
      ),
  )
    .option(
      '-n, --namespace <name>',
      "namespace for objects that name none (default: the context's namespace, else default)",
    )
    .option('--wait', 'wait until every Application is healthy (the default)', true)
    .option('--no-wait', 'apply and return without waiting')
    .addOption(timeoutOption('how long to wait for health', 300_000, '5m'))
    .option('--strict', 'treat unknown properties as errors, not warnings', false);
  addTargetOptions(addEvalLimitOptions(up)).action(async (flags: UpFlags) => {
    const { runUp } = await import('./up.action.js');
    process.exitCode = await runUp(flags);
  });
}
