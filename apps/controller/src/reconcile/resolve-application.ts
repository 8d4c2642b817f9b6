import type { Application, Definition } from '#api';
import {
  classifyObject,
  inMemorySource,
  resolveObjects,
  type AppSpec,
  type DefinitionCatalog,
  type OamObject,
  type RenderError,
} from '#renderer';
import { deepCopy, type KubeObject } from '#kube-core';

export interface Resolved {
  spec?: AppSpec;
  errors: RenderError[];
  warnings: RenderError[];
  /** Every definition the render will use, for the revision hash. */
  definitions: Definition[];
}

/**
 * Validates the cached Application (or standalone Component) and joins it
 * with its definitions and `joined` Components and Traits (the renderer's
 * resolve step, fed from the caches instead of files).
 */
export function resolveApplication(
  app: KubeObject,
  catalog: DefinitionCatalog,
  joined: readonly OamObject[] = [],
): Resolved {
  // No file: messages start at the object (`Application "hello", components[0] ...`).
  const classified = classifyObject({ object: deepCopy(app) as never, source: inMemorySource('') });
  if (!classified.value) return { errors: classified.errors, warnings: [], definitions: [] };
  const resolved = resolveObjects([classified.value, ...joined], catalog);
  const spec = resolved.apps[0];
  if (resolved.errors.length > 0 || !spec)
    return { errors: resolved.errors, warnings: resolved.warnings, definitions: [] };
  const definitions = spec.components.flatMap((c) => [c.definition, ...c.traits.map((t) => t.definition)]);
  return { spec, errors: [], warnings: resolved.warnings, definitions };
}

/** What `policies` and `workflow` hold that this controller stores but does not run. */
export function unsupportedFields(app: Application): string[] {
  const found: string[] = [];
  const policies = app.spec.policies ?? [];
  if (policies.length > 0) found.push(`spec.policies (${policies.map((p) => p.type).join(', ')})`);
  if (app.spec.workflow) found.push('spec.workflow');
  return found;
}
