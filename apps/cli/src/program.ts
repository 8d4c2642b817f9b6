import { Command } from 'commander';
import { registerApi } from './commands/api/index.js';
import { registerCompletion } from './commands/completion/index.js';
import { registerController } from './commands/controller/index.js';
import { registerDef } from './commands/def/index.js';
import { registerDelete } from './commands/delete/index.js';
import { registerDiff } from './commands/diff/index.js';
import { registerHistory } from './commands/history/index.js';
import { registerInit } from './commands/init/index.js';
import { registerInstall } from './commands/install/index.js';
import { registerLs } from './commands/ls/index.js';
import { registerRender } from './commands/render/index.js';
import { registerRollback } from './commands/rollback/index.js';
import { registerServer } from './commands/server/index.js';
import { registerStatus } from './commands/status/index.js';
import { registerUninstall } from './commands/uninstall/index.js';
import { registerUp } from './commands/up/index.js';
import { registerVersion } from './commands/version/index.js';
import { describeFailure } from './output/failure.js';
import { isVerbose, setVerbose } from './output/verbose.js';

/**
 * The `oam` command. Each command lives in its own folder and loads its
 * heavy code (engines, clients) only when it runs.
 */
export function buildProgram(): Command {
  const program = new Command('oam')
    .description('Open Application Model platform: render and run Applications on Kubernetes')
    .version(process.env.npm_package_version ?? '0.1.0')
    .option(
      '-v, --verbose',
      'print each HTTP request (method, URL, status, duration) and, on failure, the stack trace',
      false,
    )
    .showHelpAfterError()
    .hook('preAction', (command) => setVerbose(Boolean(command.opts().verbose)));
  registerUp(program);
  registerStatus(program);
  registerLs(program);
  registerDelete(program);
  registerDiff(program);
  registerHistory(program);
  registerRollback(program);
  registerRender(program);
  registerDef(program);
  registerInit(program);
  registerServer(program);
  registerController(program);
  registerInstall(program);
  registerUninstall(program);
  registerApi(program);
  registerVersion(program);
  registerCompletion(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    const verbose = isVerbose() || argv.slice(2).some((a) => a === '-v' || a === '--verbose');
    const { message, exitCode } = await describeFailure(err, verbose);
    process.stderr.write(message);
    process.exitCode = exitCode;
  }
}
