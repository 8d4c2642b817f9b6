import { InvalidArgumentError, Option, type Command } from 'commander';

/** --kubeconfig, --context and --local: where a command runs (see cluster/target.ts for the rule). */
export function addTargetOptions(command: Command): Command {
  return command
    .option('--kubeconfig <path>', 'kubeconfig to use (default: $KUBECONFIG, else ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context to use (default: its current context)')
    .option('--local', 'use the local plane even when a kubeconfig names a cluster', false);
}

/** `5m`, `90s`, `1h30m`, `500ms` or plain seconds → milliseconds. */
export function parseDuration(value: string): number {
  const plain = Number(value);
  if (value.trim() !== '' && Number.isFinite(plain) && plain >= 0) return plain * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (const m of value.matchAll(re)) {
    matched += m[0].length;
    total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
  }
  if (matched === 0 || matched !== value.length)
    throw new InvalidArgumentError('expected a duration such as 90s, 5m or 1h');
  return total;
}

const QUANTITY_UNITS: Record<string, number> = {
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** A Kubernetes quantity of bytes (`512Mi`, `1Gi`, `500M`, `1048576`) → bytes. */
export function parseQuantity(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(value.trim());
  const bytes = m ? Math.floor(Number(m[1]) * QUANTITY_UNITS[m[2] ?? '']) : NaN;
  if (!(bytes > 0)) throw new InvalidArgumentError('expected a quantity such as 512Mi or 1Gi');
  return bytes;
}

/** A duration that must be more than zero (a limit of 0 would fail every evaluation). */
function parsePositiveDuration(value: string): number {
  const ms = parseDuration(value);
  if (!(ms > 0)) throw new InvalidArgumentError('expected a duration above zero, such as 5s or 500ms');
  return ms;
}

export interface EvalLimitFlags {
  evalCpuLimit?: number;
  evalMemoryLimit?: number;
}

/**
 * `--eval-cpu-limit` and `--eval-memory-limit`: what one template evaluation may use before
 * its worker is replaced. Defaults are the renderer's, repeated here to keep `oam --help`
 * from loading the renderer.
 */
export function addEvalLimitOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--eval-cpu-limit <duration>',
        'CPU time one template evaluation may use (e.g. 5s, 500ms; default 5s)',
      ).argParser(parsePositiveDuration),
    )
    .addOption(
      new Option(
        '--eval-memory-limit <quantity>',
        'memory one template evaluation may use (e.g. 256Mi, 1Gi; default 256Mi)',
      ).argParser(parseQuantity),
    );
}

/** The renderer's options for the flags given (undefined: the renderer's default). */
export function evalLimits(flags: EvalLimitFlags): { cpuLimitMs?: number; memoryLimitBytes?: number } {
  return { cpuLimitMs: flags.evalCpuLimit, memoryLimitBytes: flags.evalMemoryLimit };
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `-f, --file`, repeatable: what `up`, `diff`, `render` and `def apply|vet` read. */
export function addFileOption(command: Command): Command {
  return command.requiredOption(
    '-f, --file <path>',
    'a YAML file, a folder (recursively), or - for stdin; repeatable',
    collect,
    [],
  );
}

/** `--timeout <duration>` in milliseconds; `label` is how --help shows the default (`5m`). */
export function timeoutOption(description: string, defaultMs: number, label: string): Option {
  return new Option('--timeout <duration>', `${description} (e.g. 90s, 5m)`)
    .default(defaultMs, label)
    .argParser(parseDuration);
}
