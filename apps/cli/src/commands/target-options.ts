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
