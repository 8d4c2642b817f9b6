import type { Application, Component, Trait } from '#api';
import type { Indexer, MapFunc, Request } from '#runtime';
import { type KubeObject } from '#kube-core';
import { usersOf } from './definition-index.js';
import {
  applicationTargetKey,
  COMPONENT_REF_INDEX,
  componentRefKey,
  componentTargetKey,
  TRAIT_TARGET_INDEX,
  traitTargetIndexFunc,
  TYPE_INDEX,
} from './indexes.js';

export interface OamCaches {
  apps: Indexer<Application>;
  components: Indexer<Component>;
  traits: Indexer<Trait>;
}

const request = (o: KubeObject): Request => ({ namespace: o.metadata!.namespace!, name: o.metadata!.name! });
const refsOf = (app: Application): string[] =>
  (app.spec?.components ?? []).flatMap((c) => (c.componentRef ? [c.componentRef] : []));
const notSelf =
  (self: KubeObject) =>
  (r: Request): boolean =>
    r.namespace !== self.metadata?.namespace || r.name !== self.metadata?.name;

/**
 * How a change to one OAM object reaches the reconcilers it concerns, all
 * through informer indexes (Applications by componentRef, Traits by target,
 * Components and Traits by type), never a list of everything.
 */
export function oamWatches(caches: OamCaches, systemNamespace: string) {
  const appsReferencing = (ns: string, component: string) =>
    caches.apps.byIndex(COMPONENT_REF_INDEX, componentRefKey(ns, component)).map(request);
  const traitsAt = (key: string) => caches.traits.byIndex(TRAIT_TARGET_INDEX, key);
  const componentsOfType = usersOf((v) => caches.components.byIndex(TYPE_INDEX, v), systemNamespace);
  const traitsOfType = usersOf((v) => caches.traits.byIndex(TYPE_INDEX, v), systemNamespace);

  const appsOfComponent: MapFunc = (c) => appsReferencing(c.metadata!.namespace!, c.metadata!.name!);
  const appsOfTrait: MapFunc<Trait> = (t) => {
    const ns = t.metadata!.namespace!;
    const target = t.spec?.target;
    if (!target) return [];
    return target.application
      ? [{ namespace: ns, name: target.application }]
      : appsReferencing(ns, target.component);
  };
  const componentsOfTrait: MapFunc<Trait> = (t) => {
    const target = t.spec?.target;
    return target && !target.application
      ? [{ namespace: t.metadata!.namespace!, name: target.component }]
      : [];
  };
  return {
    application: {
      /** A Component changed: the Applications referencing it re-render. */
      components: appsOfComponent,
      /** A Trait changed or went: the Application it targets, directly or through its Component. */
      traits: appsOfTrait,
      /** An Application changed or went: the others referencing its Components (which one renders may change). */
      applications: (a: Application) =>
        refsOf(a)
          .flatMap((c) => appsReferencing(a.metadata!.namespace!, c))
          .filter(notSelf(a)),
      componentDefinitions: (d: KubeObject) => componentsOfType(d).flatMap(appsOfComponent),
      traitDefinitions: (d: KubeObject) => traitsOfType(d).flatMap(appsOfTrait),
    },
    component: {
      /** An Application changed (spec or status): the Components it references. */
      applications: (a: Application) =>
        refsOf(a).map((name) => ({ namespace: a.metadata!.namespace!, name })),
      traits: componentsOfTrait,
      componentDefinitions: (d: KubeObject) => componentsOfType(d).map(request),
      traitDefinitions: (d: KubeObject) => traitsOfType(d).flatMap(componentsOfTrait),
    },
    trait: {
      /** An Application changed (spec or status): the Traits aimed at it or at its Components. */
      applications: (a: Application) => {
        const ns = a.metadata!.namespace!;
        return [
          ...traitsAt(applicationTargetKey(ns, a.metadata!.name!)),
          ...refsOf(a).flatMap((c) => traitsAt(componentTargetKey(ns, c))),
        ].map(request);
      },
      components: (c: Component) =>
        traitsAt(componentTargetKey(c.metadata!.namespace!, c.metadata!.name!)).map(request),
      /** A Trait changed or went: the others on the same target (who wins a conflict may change). */
      traits: (t: Trait) => traitTargetIndexFunc(t).flatMap(traitsAt).map(request).filter(notSelf(t)),
      traitDefinitions: (d: KubeObject) => traitsOfType(d).map(request),
    },
  };
}
