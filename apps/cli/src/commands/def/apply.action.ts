import {
  API_VERSION,
  COMPONENT_DEFINITIONS,
  DEFAULT_SYSTEM_NAMESPACE,
  FIELD_MANAGERS,
  TRAIT_DEFINITIONS,
} from '#api';
import type { KubeObject } from '#kube-core';
import { NoKindMatchError } from '#runtime';
import { connect, resolveTarget, targetLine } from '../../cluster/session.js';
import { readInputs } from '../../io/read-inputs.js';
import { colorsFor } from '../../output/colors.js';
import { EXIT } from '../../output/exit-codes.js';
import { UserError } from '../../output/user-error.js';
import type { DefFileFlags } from './index.js';
import { vetDefinitions } from './vet.js';

/**
 * `def vet` first (any error: exit 1, nothing applied), then server-side
 * apply as oam-cli, forced (the file is the intent, as `oam up`). Definitions
 * that name no namespace go to -n, else vela-system, where every app finds them.
 */
export async function runDefApply(flags: DefFileFlags): Promise<number> {
  const files = await readInputs(flags.file);
  const choice = resolveTarget(flags);
  process.stdout.write(`${targetLine(choice)}\n`);
  const vetted = await vetDefinitions(files);
  const pc = colorsFor(process.stderr);
  for (const w of vetted.warnings) process.stderr.write(`${pc.yellow('warning:')} ${w}\n`);
  if (vetted.errors.length > 0) {
    for (const e of vetted.errors) process.stderr.write(`${pc.red('error:')} ${e}\n`);
    process.stderr.write('nothing applied\n');
    return EXIT.INVALID;
  }
  if (vetted.definitions.length === 0)
    throw new UserError('nothing to apply: the input holds no definitions');
  const session = await connect(choice, { startPlane: true, say: (l) => process.stdout.write(`${l}\n`) });
  try {
    for (const kind of [COMPONENT_DEFINITIONS, TRAIT_DEFINITIONS]) {
      try {
        await session.call(() => session.mapper.kindFor({ apiVersion: API_VERSION, kind: kind.kind }));
      } catch (err) {
        if (!(err instanceof NoKindMatchError)) throw err;
        throw new UserError(
          `the OAM CRDs are not installed on ${session.label} (no ${kind.kind}): run \`oam install\` first`,
          EXIT.CLUSTER,
        );
      }
    }
    for (const { definition } of vetted.definitions) {
      const own = definition.metadata.namespace;
      if (flags.namespace && own && own !== flags.namespace)
        throw new UserError(
          `${definition.kind} "${definition.metadata.name}": metadata.namespace is "${own}", but -n says "${flags.namespace}": leave one of them out`,
        );
    }
    for (const { definition } of vetted.definitions) {
      const namespace = definition.metadata.namespace ?? flags.namespace ?? DEFAULT_SYSTEM_NAMESPACE;
      const object = {
        ...definition,
        metadata: { ...definition.metadata, namespace },
      } as KubeObject;
      const kind = definition.kind === 'ComponentDefinition' ? COMPONENT_DEFINITIONS : TRAIT_DEFINITIONS;
      const live = await session.call(() =>
        session.client(kind).apply(object, { fieldManager: FIELD_MANAGERS.cli, force: true }),
      );
      process.stdout.write(
        `applied ${definition.kind} ${namespace}/${definition.metadata.name}${live.metadata?.generation ? ` (generation ${live.metadata.generation})` : ''}\n`,
      );
    }
    return EXIT.OK;
  } finally {
    session.close();
  }
}
