import type { Definition } from '#api';
import { nearest } from '../params/index.js';
import type { DefinitionCatalog } from './catalog.js';

/**
 * Why a type is unknown, and what the user probably meant: the nearest
 * visible name, the visible names, and a same-named definition in a
 * namespace this one cannot see (a common slip with KubeVela exports).
 */
export function unknownType(
  catalog: DefinitionCatalog,
  kind: Definition['kind'],
  type: string,
  namespace: string,
): string {
  const what = kind === 'ComponentDefinition' ? 'component' : 'trait';
  const known = what === 'component' ? catalog.componentTypes(namespace) : catalog.traitTypes(namespace);
  const elsewhere = catalog.hiddenNamespaces?.(kind, type, namespace) ?? [];
  if (elsewhere.length > 0) {
    const where = elsewhere.map((ns) => `"${ns}"`).join(', ');
    return `unknown ${what} type "${type}" in namespace "${namespace}": a ${kind} "${type}" exists in namespace ${where}, which applications in "${namespace}" cannot use (put it in "${namespace}" or in the system namespace)`;
  }
  const guess = nearest(type, known);
  const hint = guess ? ` (did you mean "${guess}"?)` : '';
  const list = known.length
    ? `; known ${what} types: ${known.join(', ')}`
    : `; no ${what} definitions are installed`;
  return `unknown ${what} type "${type}"${hint}${list}`;
}
