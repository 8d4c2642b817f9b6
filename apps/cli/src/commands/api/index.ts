import { DEFAULT_SYSTEM_NAMESPACE } from '#api';
import { Command, InvalidArgumentError, Option } from 'commander';
import { addEvalLimitOptions, type EvalLimitFlags } from '../target-options.js';

export interface ApiFlags extends EvalLimitFlags {
  kubeconfig?: string;
  context?: string;
  host: string;
  port: number;
  auth?: 'kubernetes' | 'tokens';
  tokensFile?: string;
  systemNamespace: string;
  corsOrigin?: string[];
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/** `oam api`: the REST API in the foreground against one cluster (the CLI itself never calls it). */
export function registerApi(program: Command): void {
  const api = program
    .command('api')
    .description(
      'run the REST API (catalog, applications, live status; OpenAPI at /api/v1/openapi.json) against the current kubeconfig (Ctrl-C stops it)',
    )
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG or ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context to use (default: its current context)')
    .option(
      '--host <address>',
      'address to listen on (loopback by default; anything else exposes it)',
      '127.0.0.1',
    )
    .addOption(
      new Option('--port <n>', 'port to listen on (0 = any free port)').default(8080).argParser(port),
    )
    .addOption(
      new Option(
        '--auth <mode>',
        'kubernetes: check bearer tokens with TokenReview and SubjectAccessReview; tokens: a tokens file (default: tokens with --tokens-file, else kubernetes)',
      ).choices(['kubernetes', 'tokens']),
    )
    .option('--tokens-file <path>', 'YAML list of {token, name, namespaces, verbs} (with --auth tokens)')
    .option(
      '--system-namespace <ns>',
      'where built-in definitions are installed and looked up after the namespace’s own',
      DEFAULT_SYSTEM_NAMESPACE,
    )
    .option('--cors-origin <origin...>', 'allow these browser origins (CORS is off by default)')
    .addOption(
      new Option('--log-level <level>', 'least severe log level written (JSON lines on stderr)')
        .choices(['debug', 'info', 'warn', 'error'])
        .default('info'),
    );
  addEvalLimitOptions(api).action(async (flags: ApiFlags) => {
    const { runApi } = await import('./api.action.js');
    process.exitCode = await runApi(flags);
  });
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port number (0-65535)');
  return n;
}
