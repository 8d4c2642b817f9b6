import type { Definition } from './definitions.js';

/**
 * Where the controller publishes each definition's parameter schema, as
 * KubeVela does, so KubeVela's tools and the REST API read it there.
 */

/** The ConfigMap's key holding the schema (JSON). */
export const SCHEMA_KEY = 'openapi-v3-json-schema';
/** The label on each schema ConfigMap: the definition's name. */
export const SCHEMA_CONFIGMAP_LABEL = 'definition.oam.dev/name';

/** `component-schema-webservice`, `trait-schema-gateway`. */
export function schemaConfigMapName(kind: Definition['kind'], name: string): string {
  return `${kind === 'ComponentDefinition' ? 'component' : 'trait'}-schema-${name}`;
}
