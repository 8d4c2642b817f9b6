import type { Application, Component, Trait } from '#api';
import type { DefinitionCatalog } from '#renderer';
import type { Indexer } from '#runtime';
import { COMPONENT_REF_INDEX, componentRefKey, TRAIT_TARGET_INDEX } from './indexes.js';

/** Keyed reads of the informer caches the join needs (never a list of everything). */
export interface JoinSources {
  component(namespace: string, name: string): Component | undefined;
  application(namespace: string, name: string): Application | undefined;
  trait(namespace: string, name: string): Trait | undefined;
  /** Applications whose `componentRef`s name this Component. */
  applicationsReferencing(namespace: string, component: string): Application[];
  /** Traits by TRAIT_TARGET_INDEX key. */
  traitsTargeting(key: string): Trait[];
  catalog: DefinitionCatalog;
}

/** The join's reads over the informer caches: keyed gets and index lookups only. */
export function cachedJoinSources(
  caches: { apps: Indexer<Application>; components: Indexer<Component>; traits: Indexer<Trait> },
  catalog: DefinitionCatalog,
): JoinSources {
  return {
    catalog,
    component: (ns, name) => caches.components.get(ns, name),
    application: (ns, name) => caches.apps.get(ns, name),
    trait: (ns, name) => caches.traits.get(ns, name),
    applicationsReferencing: (ns, component) =>
      caches.apps.byIndex(COMPONENT_REF_INDEX, componentRefKey(ns, component)),
    traitsTargeting: (key) => caches.traits.byIndex(TRAIT_TARGET_INDEX, key),
  };
}
