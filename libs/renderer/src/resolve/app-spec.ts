import type { ComponentDefinition, TraitDefinition } from '#api';
import type { ErrorLocation } from '../errors.js';
import type { SourceInfo } from '../parse/index.js';

/**
 * The intermediate form between parsing and rendering (KubeVela's
 * "appfile"): every component with its definition and its traits resolved,
 * whatever file or object each came from. Rendering needs nothing else.
 */
export interface AppSpec {
  name: string;
  namespace: string;
  /** What owns the rendered objects: an Application, or a standalone Component deploying by itself. */
  owner: { kind: 'Application' | 'Component'; name: string; uid?: string };
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Known when the controller renders a stored revision; absent in a dry run. */
  revision?: { name: string; number: number };
  components: ResolvedComponent[];
  /** Accepted and stored; not executed by this project yet. */
  policies: unknown[];
  workflow?: unknown;
  source: SourceInfo;
}

export interface ResolvedComponent {
  name: string;
  type: string;
  properties: Record<string, unknown>;
  definition: ComponentDefinition;
  dependsOn: string[];
  traits: ResolvedTrait[];
  /** For error messages: `Application "shop"`, `components[1] "api" (webservice)`, file and line. */
  where: ErrorLocation;
  /** Finds the line of a field under this component's properties. */
  lineOfProperty(path: readonly (string | number)[]): number | undefined;
}

export interface ResolvedTrait {
  type: string;
  properties: Record<string, unknown>;
  definition: TraitDefinition;
  /** Inline in the Application, or a standalone Trait object. */
  origin: { kind: 'inline'; index: number } | { kind: 'Trait'; name: string; created?: string };
  where: ErrorLocation;
  lineOfProperty(path: readonly (string | number)[]): number | undefined;
}
