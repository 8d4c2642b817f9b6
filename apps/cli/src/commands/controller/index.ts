import { DEFAULT_SYSTEM_NAMESPACE } from '#api';
import { Command, InvalidArgumentError, Option } from 'commander';
import { addEvalLimitOptions, parseDuration, type EvalLimitFlags } from '../target-options.js';

export interface ControllerFlags extends EvalLimitFlags {
  kubeconfig?: string;
  context?: string;
  watchNamespace?: string[];
  workers: number;
  qps: number;
  burst: number;
  systemNamespace: string;
  resyncPeriod: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  leaderElect: boolean;
  leaderElectLeaseDuration: number;
  leaderElectRenewDeadline: number;
  leaderElectRetryPeriod: number;
  metricsPort?: number;
  metricsHost: string;
  revisionLimit: number;
  dependsOnTimeout: number;
}

/** `oam controller`: the OAM controller in the foreground, against the current kubeconfig. */
export function registerController(program: Command): void {
  const controller = program
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
      DEFAULT_SYSTEM_NAMESPACE,
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
      new Option(
        '--revision-limit <n>',
        'ApplicationRevisions kept per application, the live one included (oldest deleted first)',
      )
        .default(10)
        .argParser(positiveInt),
    )
    .addOption(
      new Option(
        '--depends-on-timeout <duration>',
        'how long a component waits for those it dependsOn to be healthy before the controller reports it gave up',
      )
        .default(600_000, '10m')
        .argParser(positiveDuration),
    )
    .option(
      '--leader-elect',
      'run as one of several replicas: only the holder of Lease oam-system/oam-controller-leader reconciles',
      false,
    )
    .addOption(
      new Option('--leader-elect-lease-duration <duration>', 'how long a leader’s claim holds unrenewed')
        .default(15_000, '15s')
        .argParser(positiveDuration),
    )
    .addOption(
      new Option(
        '--leader-elect-renew-deadline <duration>',
        'how long the leader retries renewing before it gives up',
      )
        .default(10_000, '10s')
        .argParser(positiveDuration),
    )
    .addOption(
      new Option('--leader-elect-retry-period <duration>', 'interval between attempts to acquire or renew')
        .default(2_000, '2s')
        .argParser(positiveDuration),
    )
    .addOption(
      new Option(
        '--metrics-port <port>',
        'serve /healthz, /readyz and /metrics (Prometheus) on this port',
      ).argParser(port),
    )
    .option('--metrics-host <address>', 'address the metrics port binds (0.0.0.0 in a pod)', '127.0.0.1')
    .addOption(
      new Option('--log-level <level>', 'least severe log level written (JSON lines on stderr)')
        .choices(['debug', 'info', 'warn', 'error'])
        .default('info'),
    );
  addEvalLimitOptions(controller).action(async (flags: ControllerFlags) => {
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

function positiveDuration(value: string): number {
  const ms = parseDuration(value);
  if (ms <= 0) throw new InvalidArgumentError('expected a duration above zero, such as 15s');
  return ms;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port from 0 to 65535');
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}
