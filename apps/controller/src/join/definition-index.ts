import type { Application } from '#api';
import type { IndexFunc, Request } from '#runtime';
import { type KubeObject } from '#kube-core';

/** Applications by the definitions they use: `ComponentDefinition/webservice`, `TraitDefinition/gateway`. */
export const DEFINITION_INDEX = 'oam.definitions';

export const definitionIndexFunc: IndexFunc<Application> = (obj) => {
  const components = obj.spec?.components ?? [];
  const keys = new Set<string>();
  for (const c of components) {
    if (c.type) keys.add(`ComponentDefinition/${c.type}`);
    for (const t of c.traits ?? []) keys.add(`TraitDefinition/${t.type}`);
  }
  return [...keys];
};

/**
 * The Applications a changed definition re-renders: those using its name in
 * its namespace, or in every namespace when it is a system definition (an
 * app namespace with its own definition of that name just re-renders unchanged).
 */
export function applicationsUsing(
  byIndex: (value: string) => KubeObject[],
  systemNamespace: string,
): (definition: KubeObject) => Request[] {
  const users = usersOf(byIndex, systemNamespace);
  return (definition) =>
    users(definition).map((app) => ({ namespace: app.metadata!.namespace!, name: app.metadata!.name! }));
}

/** The objects (Applications, Components, Traits) a changed definition concerns, by an index keyed `<Kind>/<name>`. */
export function usersOf<T extends KubeObject>(
  byIndex: (value: string) => T[],
  systemNamespace: string,
): (definition: KubeObject) => T[] {
  return (definition) => {
    const ns = definition.metadata?.namespace ?? '';
    const users = byIndex(`${definition.kind}/${definition.metadata?.name}`);
    return users.filter((o) => ns === systemNamespace || o.metadata?.namespace === ns);
  };
}
