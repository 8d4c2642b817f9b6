import { Command } from 'commander';

export interface InitFlags {
  type?: string;
  image?: string;
  split: boolean;
  dir: string;
  force: boolean;
}

/** `oam init`: scaffold files `oam up -f` accepts as they are. */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description(
      "scaffold app.yaml (with --split: component.yaml and trait.yaml, the developer's and the operator's) that `oam up -f` accepts as is; asks for what is missing on a terminal",
    )
    .argument('[name]', "the app's name (default: the folder's name)")
    .option('--type <type>', 'the component type, a built-in definition (default: webservice)')
    .option('--image <image>', 'the container image (default: crccheck/hello-world)')
    .option('--split', 'a standalone Component and a Trait targeting it instead of an Application', false)
    .option('--dir <path>', 'where to write the files', '.')
    .option('--force', 'overwrite files that exist', false)
    .action(async (name: string | undefined, flags: InitFlags) => {
      const { runInit } = await import('./init.action.js');
      process.exitCode = await runInit(name, flags);
    });
}
