import { DEFAULT_SYSTEM_NAMESPACE, type Definition } from '#api';
import { createRenderer, parameterOpenApiSchema, RenderError, RenderErrors } from '#renderer';
import { connect, resolveTarget, targetLine } from '../../cluster/session.js';
import { colorsFor } from '../../output/colors.js';
import { EXIT } from '../../output/exit-codes.js';
import { formatTable, plainTable } from '../../output/table.js';
import { UserError } from '../../output/user-error.js';
import { planeState } from '../../plane/plane.js';
import { builtinDefinitions, clusterDefinitions, descriptionOf, type ListedDefinition } from './catalog.js';
import { parameterRows } from './parameter-table.js';
import type { DefShowFlags } from './index.js';

/**
 * The definition from the target (its -n namespace, then vela-system, then
 * any), else the built-in of that name; parameters from the same schema
 * function the controller publishes (`parameterOpenApiSchema`).
 */
export async function runDefShow(type: string, flags: DefShowFlags): Promise<number> {
  const choice = resolveTarget(flags);
  process.stdout.write(`${targetLine(choice)}\n`);
  let candidates: ListedDefinition[];
  if (choice.kind === 'local' && planeState().state !== 'running') {
    candidates = await builtinDefinitions();
  } else {
    const session = await connect(choice, { startPlane: false, say: (l) => process.stderr.write(`${l}\n`) });
    try {
      candidates = await clusterDefinitions(session, { type: flags.type });
    } finally {
      session.close();
    }
  }
  const found = pick(
    candidates.filter((d) => d.definition.metadata.name === type && (!flags.type || d.type === flags.type)),
    flags.namespace,
  );
  if (!found) {
    const names = [...new Set(candidates.map((d) => d.definition.metadata.name))].sort();
    throw new UserError(
      `no ${flags.type ?? 'component or trait'} definition "${type}"${flags.namespace ? ` in namespace ${flags.namespace} or ${DEFAULT_SYSTEM_NAMESPACE}` : ''} (there are: ${names.join(', ') || 'none'})`,
      EXIT.INVALID,
    );
  }
  process.stdout.write(await describe(found));
  return EXIT.OK;
}

/** -n first, then the system namespace, then wherever it is; a component before a trait of the same name. */
function pick(matches: ListedDefinition[], namespace?: string): ListedDefinition | undefined {
  const rank = (d: ListedDefinition) =>
    (d.namespace === namespace ? 0 : d.namespace === DEFAULT_SYSTEM_NAMESPACE || !d.namespace ? 1 : 2) * 2 +
    (d.type === 'component' ? 0 : 1);
  return [...matches].sort((a, b) => rank(a) - rank(b))[0];
}

async function describe(listed: ListedDefinition): Promise<string> {
  const pc = colorsFor(process.stdout);
  const d = listed.definition;
  const lines: string[] = [
    `${pc.bold(d.metadata.name ?? '')} (${d.kind}, ${listed.namespace ? `namespace ${listed.namespace}` : 'built-in'})`,
  ];
  const description = descriptionOf(d);
  if (description) lines.push(`description: ${description}`);
  lines.push(`engine: ${d.spec.schematic.cue ? 'CUE' : 'Handlebars'}`);
  if (d.kind === 'ComponentDefinition') {
    const w = d.spec.workload;
    lines.push(
      `workload: ${w?.definition ? `${w.definition.kind} (${w.definition.apiVersion})` : (w?.type ?? 'not declared')}`,
    );
  } else {
    lines.push(`applies to: ${d.spec.appliesToWorkloads?.join(', ') || 'any workload'}`);
    if (d.spec.conflictsWith?.length) lines.push(`conflicts with: ${d.spec.conflictsWith.join(', ')}`);
  }
  const rows = parameterRows(await schemaOf(d));
  if (rows.length === 0) {
    lines.push('', 'no parameters');
    return `${lines.join('\n')}\n`;
  }
  const table = plainTable(['NAME', 'TYPE', 'REQUIRED', 'DEFAULT', 'DESCRIPTION']);
  for (const r of rows) table.push([r.name, r.type, r.required ? 'yes' : 'no', r.default, r.description]);
  return `${lines.join('\n')}\n\n${formatTable(table)}`;
}

async function schemaOf(definition: Definition): Promise<Record<string, unknown>> {
  const handle = createRenderer();
  try {
    return await parameterOpenApiSchema(definition, handle.compiler);
  } catch (err) {
    const first = err instanceof RenderErrors ? err.errors[0] : err;
    if (first instanceof RenderError)
      throw new UserError(
        `cannot read the parameters of ${definition.kind} "${definition.metadata.name}": ${first.message}`,
      );
    throw err;
  } finally {
    await handle.close();
  }
}
