import { OAM_KINDS } from './kinds.js';
import { GROUP, VERSION } from './meta.js';

/** An OAM kind as a REST collection: what #runtime's ResourceKind names (group, version, kind, resource, scope). */
export interface OamResource {
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

const RESOURCES: ReadonlyMap<string, OamResource> = new Map(
  OAM_KINDS.map((k) => [
    k.kind,
    { group: GROUP, version: VERSION, plural: k.plural, kind: k.kind, namespaced: true },
  ]),
);

/** The collection of an OAM kind (`Application` → applications.core.oam.dev/v1beta1); throws for any other kind. */
export function oamResource(kind: string): OamResource {
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
