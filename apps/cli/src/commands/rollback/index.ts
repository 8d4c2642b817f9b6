import { Command, InvalidArgumentError, Option } from 'commander';
import { addTargetOptions, timeoutOption } from '../target-options.js';

export interface RollbackFlags {
  to?: number;
  namespace?: string;
  wait: boolean;
  timeout: number;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam rollback NAME [--to N]`: asks the controller to render revision N again, then waits as `oam up` does. */
export function registerRollback(program: Command): void {
  const rollback = program
    .command('rollback')
    .description(
      'roll an Application back to an earlier revision (default: the one before the live one), then wait until healthy',
    )
    .argument('<name>', 'the Application')
    .addOption(
      new Option('--to <revision>', 'the revision number (see `oam history`)').argParser(revisionNumber),
    )
    .option('-n, --namespace <name>', "its namespace (default: the context's namespace, else default)")
    .option('--wait', 'wait until the rolled-back app is healthy (the default)', true)
    .option('--no-wait', 'ask for the rollback and return without waiting')
    .addOption(timeoutOption('how long to wait for health', 300_000, '5m'));
  addTargetOptions(rollback).action(async (name: string, flags: RollbackFlags) => {
    const { runRollback } = await import('./rollback.action.js');
    process.exitCode = await runRollback(name, flags);
  });
}

function revisionNumber(value: string): number {
  const n = Number(value.replace(/^v/, ''));
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a revision number such as 3');
  return n;
}
