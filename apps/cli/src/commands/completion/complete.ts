import type { Command, Option } from 'commander';
import { FILES_DIRECTIVE } from './scripts.js';

/** Names only the target knows: asked for lazily, and only when that word is being completed. */
export type NameKind = 'applications' | 'definitions' | 'namespaces';

export interface Lookup {
  (kind: NameKind, flags: Record<string, string | boolean>): Promise<string[]>;
}

/** Options whose value names a file: the shell completes paths. */
const FILE_OPTIONS = new Set(['--file', '--kubeconfig']);
/** Positional arguments (by their name in the command's usage) that name things on the target. */
const ARGUMENT_NAMES: Record<string, NameKind> = { name: 'applications', type: 'definitions' };

/**
 * Candidates for the last of `words` (the words after `oam`, the one being
 * typed last, possibly empty), read from the program's own commands, options
 * and argument choices; names from the target through `lookup`.
 */
export async function complete(program: Command, words: string[], lookup?: Lookup): Promise<string[]> {
  const current = words.at(-1) ?? '';
  const before = words.slice(0, -1);
  let command = program;
  let positional = 0;
  const flags: Record<string, string | boolean> = {};
  let awaiting: Option | undefined;
  for (const word of before) {
    if (awaiting) {
      flags[awaiting.attributeName()] = word;
      awaiting = undefined;
      continue;
    }
    if (word.startsWith('-') && word !== '-') {
      const [name, inline] = word.split('=', 2);
      const option = findOption(command, program, name);
      if (option && (option.required || option.optional) && inline === undefined) awaiting = option;
      else if (option) flags[option.attributeName()] = inline ?? true;
      continue;
    }
    const sub = visibleCommands(command).find((c) => c.name() === word || c.aliases().includes(word));
    if (sub && positional === 0) command = sub;
    else positional++;
  }
  const names = (kind: NameKind) => (lookup ? lookup(kind, flags) : defaultLookup(kind, flags));
  if (awaiting) {
    if (awaiting.argChoices) return prefixed(awaiting.argChoices, current);
    if (awaiting.long && FILE_OPTIONS.has(awaiting.long)) return [FILES_DIRECTIVE];
    if (awaiting.long === '--namespace') return prefixed(await names('namespaces'), current);
    return [];
  }
  if (current.startsWith('-')) {
    const options = [...command.options, ...(command === program ? [] : program.options)];
    return prefixed([...options.flatMap((o) => (o.hidden || !o.long ? [] : [o.long])), '--help'], current);
  }
  const subcommands = visibleCommands(command);
  if (subcommands.length > 0 && positional === 0)
    return prefixed(
      subcommands.map((c) => c.name()),
      current,
    );
  const args = command.registeredArguments;
  const arg = args[positional] ?? (args.at(-1)?.variadic ? args.at(-1) : undefined);
  if (!arg) return [];
  if (arg.argChoices) return prefixed(arg.argChoices, current);
  const kind = ARGUMENT_NAMES[arg.name()];
  return kind ? prefixed(await names(kind), current) : [FILES_DIRECTIVE];
}

function visibleCommands(command: Command): Command[] {
  return command.commands.filter((c) => !c.name().startsWith('__'));
}

function findOption(command: Command, program: Command, name: string): Option | undefined {
  return [...command.options, ...program.options].find((o) => o.long === name || o.short === name);
}

function prefixed(candidates: readonly string[], current: string): string[] {
  return [...new Set(candidates)].filter((c) => c.startsWith(current)).sort();
}

async function defaultLookup(kind: NameKind, flags: Record<string, string | boolean>): Promise<string[]> {
  const { lookupNames } = await import('./names.js');
  return lookupNames(kind, flags);
}
