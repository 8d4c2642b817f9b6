import { Command, Option } from 'commander';
import { addTargetOptions } from '../target-options.js';

export interface VersionFlags {
  output: 'text' | 'json';
  client: boolean;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}

/** `oam version`: this CLI's, and when the target answers, its API server's and its controller's. */
export function registerVersion(program: Command): void {
  const version = program
    .command('version')
    .description(
      "print the CLI's version, and the target's API server and OAM controller versions when reachable",
    )
    .option('--client', 'only the CLI version; do not contact a cluster', false)
    .addOption(
      new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'),
    );
  addTargetOptions(version).action(async (flags: VersionFlags) => {
    const { runVersion } = await import('./version.action.js');
    process.exitCode = await runVersion(flags);
  });
}
