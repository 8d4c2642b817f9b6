import type { ResourceKind } from '#kube-core';
import type { Application } from './application.js';
import type { Component, Trait } from './component.js';
import type { ComponentDefinition, TraitDefinition } from './definitions.js';
import { OAM_KINDS } from './kinds.js';
import { GROUP, VERSION } from './meta.js';
import type { ApplicationRevision } from './revision.js';

/** An OAM kind as a REST collection: a #kube-core ResourceKind (group, version, kind, resource, scope). */
export type OamResource<T extends OamKindObject = OamKindObject> = ResourceKind<T>;

/** Each OAM kind's object type, by kind name. */
export interface OamKindTypes {
  Application: Application;
  Component: Component;
  Trait: Trait;
  ComponentDefinition: ComponentDefinition;
  TraitDefinition: TraitDefinition;
  ApplicationRevision: ApplicationRevision;
}
export type OamKindObject = OamKindTypes[keyof OamKindTypes];

const RESOURCES: ReadonlyMap<string, ResourceKind> = new Map(
  OAM_KINDS.map((k) => [
    k.kind,
    { group: GROUP, version: VERSION, plural: k.plural, kind: k.kind, namespaced: true },
  ]),
);

/** The collection of an OAM kind (`Application` → applications.core.oam.dev/v1beta1); throws for any other kind. */
export function oamResource<K extends keyof OamKindTypes>(kind: K): ResourceKind<OamKindTypes[K]>;
export function oamResource(kind: string): ResourceKind;
export function oamResource(kind: string): ResourceKind {
  const resource = RESOURCES.get(kind);
  if (!resource) throw new Error(`not an OAM kind: ${kind}`);
  return resource;
}

export const APPLICATIONS = oamResource('Application');
export const COMPONENTS = oamResource('Component');
export const TRAITS = oamResource('Trait');
export const COMPONENT_DEFINITIONS = oamResource('ComponentDefinition');
export const TRAIT_DEFINITIONS = oamResource('TraitDefinition');
export const APPLICATION_REVISIONS = oamResource('ApplicationRevision');
