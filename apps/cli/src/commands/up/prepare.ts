import { BuiltinDefinitionsError, loadBuiltinDefinitions } from '#definitions';
import type { KubeObject } from '#kube-core';
import {
  classifyObject,
  createRenderer,
  loadYamlDocuments,
  renderObjects,
  RenderError,
  DEFAULT_YAML_LIMITS,
  type OamObject,
  type SourceFile,
} from '#renderer';
import { reportProblems } from '../../output/report.js';
import { UserError } from '../../output/user-error.js';

/** The order `oam up` applies in: what others refer to first. */
export const APPLY_ORDER: OamObject['kind'][] = [
  'ComponentDefinition',
  'TraitDefinition',
  'Component',
  'Application',
  'Trait',
];

export interface PlannedObject {
  kind: OamObject['kind'];
  /** The object as the user wrote it, with its namespace filled in: what is applied. */
  object: KubeObject;
  namespace: string;
  name: string;
}

/**
 * Validates and renders everything locally, exactly as `oam render` does
 * (same errors, same format), before anything touches a cluster. Returns the
 * objects in apply order, or undefined after reporting the problems.
 */
export async function prepare(
  files: readonly SourceFile[],
  options: { namespace?: string; defaultNamespace: string; strict: boolean },
): Promise<PlannedObject[] | undefined> {
  const parsed: OamObject[] = [];
  const raw = new Map<OamObject, KubeObject>();
  const errors: RenderError[] = [];
  for (const file of files) {
    const loaded = loadYamlDocuments(file, DEFAULT_YAML_LIMITS);
    errors.push(...loaded.errors);
    for (const item of loaded.objects) {
      const result = classifyObject(item);
      errors.push(...result.errors);
      if (result.value) {
        parsed.push(result.value);
        raw.set(result.value, item.object as KubeObject);
        const own = item.object.metadata?.namespace;
        if (options.namespace && own && own !== options.namespace)
          errors.push(
            new RenderError(
              `metadata.namespace is "${own}", but -n says "${options.namespace}": leave one of them out`,
              {
                file: item.source.file,
                line: item.source.line,
                object: `${item.object.kind} "${item.object.metadata?.name}"`,
              },
            ),
          );
      }
    }
  }
  if (errors.length > 0) {
    reportProblems(errors, []);
    return undefined;
  }
  if (parsed.length === 0) throw new UserError('nothing to apply: the input holds no objects');
  const builtins = await loadBuiltinDefinitions().catch((err: unknown) => {
    throw err instanceof BuiltinDefinitionsError ? new UserError(err.message) : err;
  });
  const defaultNamespace = options.defaultNamespace;
  const handle = createRenderer();
  try {
    const result = await renderObjects(parsed, handle.renderer, {
      builtins,
      strict: options.strict,
      defaultNamespace,
    });
    reportProblems(result.errors, result.warnings);
    if (result.errors.length > 0) return undefined;
  } finally {
    await handle.close();
  }
  const planned = parsed.map((p) => {
    const object = raw.get(p)!;
    const namespace = object.metadata?.namespace ?? defaultNamespace;
    return {
      kind: p.kind,
      object: { ...object, metadata: { ...object.metadata, namespace } },
      namespace,
      name: object.metadata!.name!,
    };
  });
  return planned.sort((a, b) => APPLY_ORDER.indexOf(a.kind) - APPLY_ORDER.indexOf(b.kind));
}
