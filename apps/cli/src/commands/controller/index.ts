import { Command, InvalidArgumentError, Option } from 'commander';

export interface ControllerFlags {
  kubeconfig?: string;
  context?: string;
  watchNamespace?: string[];
  workers: number;
  qps: number;
  burst: number;
  systemNamespace: string;
  resyncPeriod: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/** `oam controller`: the OAM controller in the foreground, against the current kubeconfig. */
export function registerController(program: Command): void {
  program
    .command('controller')
    .description('run the OAM controller: reconcile Applications into running workloads (Ctrl-C stops it)')
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG or ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context to use (default: its current context)')
    .option(
      '--watch-namespace <ns...>',
      'reconcile Applications only in these namespaces (repeatable; default all)',
      collect,
    )
    .addOption(new Option('--workers <n>', 'concurrent reconciles').default(4).argParser(positiveInt))
    .addOption(
      new Option('--qps <n>', 'API requests per second (client-side limit)')
        .default(50)
        .argParser(positiveInt),
    )
    .addOption(new Option('--burst <n>', 'API request burst above --qps').default(100).argParser(positiveInt))
    .option(
      '--system-namespace <ns>',
      'where built-in definitions are installed and looked up after the application’s namespace',
      'vela-system',
    )
    .addOption(
      new Option(
        '--resync-period <seconds>',
        'reconcile every Application this often even without events (0 = never)',
      )
        .default(600)
        .argParser(nonNegativeInt),
    )
    .addOption(
      new Option('--log-level <level>', 'least severe log level written (JSON lines on stderr)')
        .choices(['debug', 'info', 'warn', 'error'])
        .default('info'),
    )
    .action(async (flags: ControllerFlags) => {
      const { runController } = await import('./controller.action.js');
      process.exitCode = await runController(flags);
    });
}

function collect(value: string | string[], previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...(Array.isArray(value) ? value : [value])];
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number of seconds');
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}
