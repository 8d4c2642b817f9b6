import { Argument, Command } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/**
 * `oam completion bash|zsh|fish` prints a script that asks the hidden
 * `oam __complete -- WORDS...` for candidates, so commands and flags come
 * from this program itself and names from the target cluster.
 */
export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (e.g. `source <(oam completion bash)`)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .action(async (shell: (typeof SHELLS)[number]) => {
      const { completionScript } = await import('./scripts.js');
      process.stdout.write(completionScript(shell));
    });
  program
    .command('__complete', { hidden: true })
    .description('print completion candidates for the words after `oam` (the last one is being typed)')
    .argument('[words...]')
    .helpOption(false)
    .action(async (words: string[]) => {
      const { complete } = await import('./complete.js');
      const out = await complete(program, words);
      process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
    });
}
