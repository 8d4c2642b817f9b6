import {
  API_VERSION,
  COMPONENT_DEFINITIONS,
  DESCRIPTION_ANNOTATION,
  TRAIT_DEFINITIONS,
  type Definition,
} from '#api';
import { BuiltinDefinitionsError, loadBuiltinDefinitions } from '#definitions';
import { NoKindMatchError } from '#runtime';
import { type Session } from '../../cluster/session.js';
import { UserError } from '../../output/user-error.js';

export interface ListedDefinition {
  definition: Definition;
  type: 'component' | 'trait';
  /** Undefined for a built-in read from definitions/ rather than from a cluster. */
  namespace?: string;
}

export const typeOf = (d: Definition): 'component' | 'trait' =>
  d.kind === 'ComponentDefinition' ? 'component' : 'trait';

export const descriptionOf = (d: Definition): string =>
  d.metadata.annotations?.[DESCRIPTION_ANNOTATION] ?? '';

export async function builtinDefinitions(): Promise<ListedDefinition[]> {
  const defs = await loadBuiltinDefinitions().catch((err: unknown) => {
    throw err instanceof BuiltinDefinitionsError ? new UserError(err.message) : err;
  });
  return defs.map((definition) => ({ definition, type: typeOf(definition) }));
}

/** The target's definitions, in one namespace or all; none when the OAM CRDs are not served. */
export async function clusterDefinitions(
  session: Session,
  options: { namespace?: string; type?: 'component' | 'trait' },
): Promise<ListedDefinition[]> {
  const out: ListedDefinition[] = [];
  for (const [type, kind] of [
    ['component', COMPONENT_DEFINITIONS],
    ['trait', TRAIT_DEFINITIONS],
  ] as const) {
    if (options.type && options.type !== type) continue;
    try {
      await session.call(() => session.mapper.kindFor({ apiVersion: API_VERSION, kind: kind.kind }));
    } catch (err) {
      if (err instanceof NoKindMatchError) continue;
      throw err;
    }
    const { items } = await session.call(() =>
      session.client(kind).listAll({ namespace: options.namespace }),
    );
    for (const item of items)
      out.push({ definition: item as Definition, type, namespace: item.metadata?.namespace });
  }
  return out;
}
