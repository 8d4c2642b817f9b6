import type { Definition } from '#api';
import { BuiltinDefinitionsError, loadBuiltinDefinitions } from '#definitions';
import type { KubeObject } from '#kube-core';
import {
  classifyObject,
  createRenderer,
  loadYamlDocuments,
  renderObjects,
  RenderError,
  DEFAULT_YAML_LIMITS,
  type ClusterInfo,
  type OamObject,
  type RenderedApp,
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
 * (same errors, same format), before anything is written to a cluster.
 * Returns the objects in apply order, or the problems (the caller reports them).
 */
export interface Prepared {
  /** In apply order; empty when there are errors. */
  planned: PlannedObject[];
  errors: RenderError[];
  warnings: RenderError[];
  /** The namespaces the inputs live in (where definitions are looked up first). */
  namespaces: string[];
  /** What the controller will make of each Application and standalone Component (`oam diff` shows it). */
  rendered: RenderedApp[];
}

/** An error the cluster may answer: a definition installed there rather than built in or among the inputs. */
export function isUnknownType(error: RenderError): boolean {
  return /unknown (component|trait) type "/.test(error.message);
}

export async function prepare(
  files: readonly SourceFile[],
  options: {
    namespace?: string;
    defaultNamespace: string;
    strict: boolean;
    /** Definitions read from the target cluster: after the inputs' own, before the built-ins. */
    clusterDefinitions?: readonly Definition[];
    /** The target's version (`context.clusterVersion`); before connecting, the fixed default. */
    cluster?: ClusterInfo;
    /** `--eval-cpu-limit`, `--eval-memory-limit` (undefined: the renderer's defaults). */
    limits?: { cpuLimitMs?: number; memoryLimitBytes?: number };
  },
): Promise<Prepared> {
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
  const defaultNamespace = options.defaultNamespace;
  const namespaces = [...new Set(parsed.map((p) => raw.get(p)!.metadata?.namespace ?? defaultNamespace))];
  if (errors.length > 0) return { planned: [], errors, warnings: [], namespaces, rendered: [] };
  if (parsed.length === 0) throw new UserError('nothing to apply: the input holds no objects');
  const builtins = await loadBuiltinDefinitions().catch((err: unknown) => {
    throw err instanceof BuiltinDefinitionsError ? new UserError(err.message) : err;
  });
  const handle = createRenderer({ ...options.limits });
  let warnings: RenderError[];
  let rendered: RenderedApp[];
  try {
    const result = await renderObjects(parsed, handle.renderer, {
      // One layer: a namespace's own definition first, then the system namespace's; the cluster's before ours.
      builtins: [...(options.clusterDefinitions ?? []), ...builtins],
      strict: options.strict,
      defaultNamespace,
      cluster: options.cluster,
    });
    if (result.errors.length > 0)
      return { planned: [], errors: result.errors, warnings: result.warnings, namespaces, rendered: [] };
    warnings = result.warnings;
    rendered = result.apps;
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
  planned.sort((a, b) => APPLY_ORDER.indexOf(a.kind) - APPLY_ORDER.indexOf(b.kind));
  return { planned, errors: [], warnings, namespaces, rendered };
}

/** Errors and warnings as `oam render` prints them. */
export function report(prepared: Prepared): void {
  reportProblems(prepared.errors, prepared.warnings);
}
