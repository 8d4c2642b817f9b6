import { Command, Option } from 'commander';
import { addEvalLimitOptions, collect, parseDuration, type EvalLimitFlags } from '../target-options.js';

/** DEFAULT_CLUSTER's version (#renderer), repeated to keep `oam --help` from loading the renderer. */
export const DEFAULT_KUBE_VERSION = '1.37';

export interface RenderFlags extends EvalLimitFlags {
  file: string[];
  output: 'yaml' | 'json';
  strict: boolean;
  namespace?: string;
  kubeVersion?: string;
  evalTimeout?: number;
}

/** `oam render`: a dry run with no cluster; prints what `oam up` would apply. */
export function registerRender(program: Command): void {
  const render = program
    .command('render')
    .description('render Applications, Components and Traits to Kubernetes objects, without a cluster')
    .requiredOption(
      '-f, --file <path>',
      'a YAML file, a folder (recursively), or - for stdin; repeatable',
      collect,
      [],
    )
    .addOption(new Option('-o, --output <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .option('--strict', 'treat unknown properties as errors, not warnings', false)
    .option('-n, --namespace <name>', 'namespace for objects that name none', 'default')
    .option(
      '--kube-version <X.Y>',
      `Kubernetes version templates see as context.clusterVersion (default ${DEFAULT_KUBE_VERSION})`,
    )
    .addOption(
      new Option(
        '--eval-timeout <duration>',
        'wall time one template evaluation may take before it is stopped as runaway, a backstop behind --eval-cpu-limit (e.g. 2s; default 30s)',
      ).argParser(parseDuration),
    );
  addEvalLimitOptions(render).action(async (flags: RenderFlags) => {
    // The CUE worker loads while the renderer's modules do (about 0.15 s sooner).
    (await import('#renderer-early')).startCueWorker();
    const { runRender } = await import('./render.action.js');
    process.exitCode = await runRender(flags);
  });
}
