import { Command, Option } from 'commander';
import {
  addEvalLimitOptions,
  addFileOption,
  addTargetOptions,
  type EvalLimitFlags,
} from '../target-options.js';

export interface DefTargetFlags {
  namespace?: string;
  kubeconfig?: string;
  context?: string;
  local: boolean;
}
export interface DefLsFlags extends DefTargetFlags {
  type?: 'component' | 'trait';
}
export interface DefShowFlags extends DefTargetFlags {
  type?: 'component' | 'trait';
}
export interface DefFileFlags extends DefTargetFlags {
  file: string[];
}

const typeOption = () =>
  new Option('--type <kind>', 'only component or only trait definitions').choices(['component', 'trait']);

/** `oam def ls|show|apply|vet`: the ComponentDefinitions and TraitDefinitions apps are written against. */
export function registerDef(program: Command): void {
  const def = program
    .command('def')
    .description('list, show, apply and check ComponentDefinitions and TraitDefinitions');

  const ls = def
    .command('ls')
    .description(
      'list definitions: NAME, TYPE, NAMESPACE, DESCRIPTION (from the target when it runs, else the built-ins)',
    )
    .addOption(typeOption())
    .option('-n, --namespace <name>', 'only this namespace (default: every namespace)');
  addTargetOptions(ls).action(async (flags: DefLsFlags) => {
    const { runDefLs } = await import('./ls.action.js');
    process.exitCode = await runDefLs(flags);
  });

  const show = def
    .command('show')
    .description('show a definition: description, workload, and its parameters as a table')
    .argument('<type>', 'the component or trait type, e.g. webservice')
    .addOption(typeOption())
    .option('-n, --namespace <name>', 'look here first (then vela-system)');
  addTargetOptions(show).action(async (type: string, flags: DefShowFlags) => {
    const { runDefShow } = await import('./show.action.js');
    process.exitCode = await runDefShow(type, flags);
  });

  const apply = addFileOption(
    def
      .command('apply')
      .description('check definitions offline (as `def vet`), then server-side apply them as oam-cli'),
  ).option('-n, --namespace <name>', 'namespace for definitions that name none (default: vela-system)');
  addTargetOptions(apply).action(async (flags: DefFileFlags) => {
    const { runDefApply } = await import('./apply.action.js');
    process.exitCode = await runDefApply(flags);
  });

  addEvalLimitOptions(
    addFileOption(
      def
        .command('vet')
        .description(
          'check definitions offline: YAML, schema, template errors with line numbers (no cluster)',
        ),
    ),
  ).action(async (flags: { file: string[] } & EvalLimitFlags) => {
    const { runDefVet } = await import('./vet.action.js');
    process.exitCode = await runDefVet(flags);
  });
}
