import { readInputs } from '../../io/read-inputs.js';
import { colorsFor } from '../../output/colors.js';
import { EXIT } from '../../output/exit-codes.js';
import { evalLimits, type EvalLimitFlags } from '../target-options.js';
import { vetDefinitions } from './vet.js';

/** Exit 0 when every definition checks out, 1 with each error (file:line) on stderr. */
export async function runDefVet(flags: { file: string[] } & EvalLimitFlags): Promise<number> {
  const result = await vetDefinitions(await readInputs(flags.file), evalLimits(flags));
  const err = colorsFor(process.stderr);
  for (const w of result.warnings) process.stderr.write(`${err.yellow('warning:')} ${w}\n`);
  for (const e of result.errors) process.stderr.write(`${err.red('error:')} ${e}\n`);
  if (result.errors.length > 0) {
    if (result.errors.length > 1) process.stderr.write(`${result.errors.length} errors\n`);
    return EXIT.INVALID;
  }
  for (const d of result.definitions)
    process.stdout.write(`${d.definition.kind} "${d.definition.metadata.name}": ok\n`);
  return EXIT.OK;
}
