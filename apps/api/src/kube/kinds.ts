import { GROUP, kindInfo, REVISION_ANNOTATIONS, VERSION } from '#api';
import { LABELS } from '#renderer';
import type { ResourceKind } from '#runtime';

/** The ResourceKind of an OAM kind, from libs/api's kind table (one place says each plural). */
function oam(kind: string): ResourceKind {
  const info = kindInfo(kind);
  if (!info) throw new Error(`not an OAM kind: ${kind}`);
  return { group: GROUP, version: VERSION, plural: info.plural, kind, namespaced: true };
}

export const APPLICATIONS = oam('Application');
export const COMPONENT_DEFINITIONS = oam('ComponentDefinition');
export const TRAIT_DEFINITIONS = oam('TraitDefinition');
export const APPLICATION_REVISIONS = oam('ApplicationRevision');
export const COMPONENTS = oam('Component');
export const TRAITS = oam('Trait');

/** Labels and annotations shared with the controller (DESIGN: rendered objects; revisions). */
export const APP_NAME_LABEL = LABELS.appName;
export const ROLLBACK_ANNOTATION = REVISION_ANNOTATIONS.rollbackTo;
export const CHANGE_SUMMARY_ANNOTATION = REVISION_ANNOTATIONS.changeSummary;
export const SCHEMA_CONFIGMAP_LABEL = 'definition.oam.dev/name';
/** Writes through the REST API (DESIGN: field managers). */
export const FIELD_MANAGER = 'oam-api';
