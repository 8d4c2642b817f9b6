import { Command } from 'commander';
import { registerController } from './commands/controller/index.js';
import { registerRender } from './commands/render/index.js';
import { registerServer } from './commands/server/index.js';
import { UserError } from './output/user-error.js';

/**
 * The `oam` command. Each command lives in its own folder and loads its
 * heavy code (engines, clients) only when it runs.
 */
export function buildProgram(): Command {
  const program = new Command('oam')
    .description('Open Application Model platform: render and run Applications on Kubernetes')
    .version(process.env.npm_package_version ?? '0.1.0')
    .showHelpAfterError();
  registerRender(program);
  registerServer(program);
  registerController(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof UserError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`oam: internal error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 2;
  }
}
