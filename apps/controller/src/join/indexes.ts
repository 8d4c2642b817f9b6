import type { Application, Component, Trait } from '#api';
import type { IndexFunc } from '#runtime';

/** Applications by the Components they reference: `<namespace>/<component>`. */
export const COMPONENT_REF_INDEX = 'oam.componentRefs';
/** Traits by what they target: `<ns>/Component/<c>`, `<ns>/Application/<a>` and `<ns>/Application/<a>/<c>`. */
export const TRAIT_TARGET_INDEX = 'oam.traitTargets';
/** Components and Traits by the definition they use: `ComponentDefinition/<type>`, `TraitDefinition/<type>`. */
export const TYPE_INDEX = 'oam.types';

export const componentRefKey = (namespace: string, component: string) => `${namespace}/${component}`;
export const componentTargetKey = (namespace: string, component: string) =>
  `${namespace}/Component/${component}`;
export const applicationTargetKey = (namespace: string, app: string, component?: string) =>
  `${namespace}/Application/${app}${component === undefined ? '' : `/${component}`}`;

export const componentRefIndexFunc: IndexFunc<Application> = (obj) => {
  const ns = obj.metadata?.namespace ?? '';
  const refs = (obj.spec?.components ?? []).flatMap((c) =>
    c.componentRef ? [componentRefKey(ns, c.componentRef)] : [],
  );
  return [...new Set(refs)];
};

export const traitTargetIndexFunc: IndexFunc<Trait> = (obj) => {
  const ns = obj.metadata?.namespace ?? '';
  const target = obj.spec?.target;
  if (!target?.component) return [];
  if (!target.application) return [componentTargetKey(ns, target.component)];
  return [
    applicationTargetKey(ns, target.application),
    applicationTargetKey(ns, target.application, target.component),
  ];
};

export const componentTypeIndexFunc: IndexFunc<Component> = (obj) => {
  const type = obj.spec?.type;
  return type ? [`ComponentDefinition/${type}`] : [];
};

export const traitTypeIndexFunc: IndexFunc<Trait> = (obj) => {
  const type = obj.spec?.type;
  return type ? [`TraitDefinition/${type}`] : [];
};
