import { Injectable } from '@nestjs/common';
import {
  COMPONENT_DEFINITIONS,
  DESCRIPTION_ANNOTATION,
  SCHEMA_KEY,
  schemaConfigMapName,
  TRAIT_DEFINITIONS,
  type ComponentDefinition,
  type Definition,
  type TraitDefinition,
} from '#api';
import { parameterOpenApiSchema, RenderError, RenderErrors } from '#renderer';
import { isNotFound, NAMESPACE_INDEX, NoKindMatchError, type ResourceKind } from '#runtime';
import { ApiProblem } from '../http/problem.js';
import { ClusterService } from '../kube/cluster.service.js';
import type { CatalogDetail, CatalogEntry } from './catalog.dto.js';
import { exampleFor } from './example.js';
import { openApiToJsonSchema } from './json-schema.js';

export type CatalogKind = CatalogEntry['kind'];

const KINDS: Record<CatalogKind, ResourceKind> = {
  component: COMPONENT_DEFINITIONS,
  trait: TRAIT_DEFINITIONS,
};

/**
 * Component and trait types from the definition caches: the system
 * namespace's and, when asked, one namespace's own (which shadow the system's
 * of the same name, as when rendering).
 */
@Injectable()
export class CatalogService {
  constructor(private readonly cluster: ClusterService) {}

  async list(
    kind: CatalogKind,
    namespace: string | undefined,
    q: string | undefined,
    component?: string,
  ): Promise<CatalogEntry[]> {
    const needle = q?.toLowerCase();
    let entries = await Promise.all(this.visible(kind, namespace).map((d) => this.entryOf(kind, d)));
    if (needle)
      entries = entries.filter(
        (e) => e.name.toLowerCase().includes(needle) || e.description.toLowerCase().includes(needle),
      );
    if (component !== undefined) {
      const target = (await this.list('component', namespace, undefined)).find((c) => c.name === component);
      if (!target) throw new ApiProblem(404, `no component type "${component}"`);
      entries = entries.filter((t) => appliesTo(t, target));
    }
    return entries.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The system namespace's definitions, shadowed by the namespace's own of the same name. */
  private visible(kind: CatalogKind, namespace: string | undefined): Definition[] {
    const indexer = this.cluster.informer(KINDS[kind]).indexer;
    const system = this.cluster.options.systemNamespace;
    const byName = new Map<string, Definition>();
    for (const ns of namespace && namespace !== system ? [system, namespace] : [system])
      for (const d of indexer.byIndex(NAMESPACE_INDEX, ns)) byName.set(d.metadata!.name!, d as Definition);
    return [...byName.values()];
  }

  async detail(kind: CatalogKind, name: string, namespace: string | undefined): Promise<CatalogDetail> {
    const indexer = this.cluster.informer(KINDS[kind]).indexer;
    const system = this.cluster.options.systemNamespace;
    const def = ((namespace && indexer.get(namespace, name)) || indexer.get(system, name)) as
      Definition | undefined;
    if (!def)
      throw new ApiProblem(
        404,
        `no ${kind} type "${name}" in ${namespace ? `namespace "${namespace}" or ` : ''}"${system}"`,
      );
    const { schema, source } = await this.parameterSchema(def);
    const jsonSchema = openApiToJsonSchema(schema);
    return {
      ...(await this.entryOf(kind, def)),
      schema: jsonSchema,
      schemaSource: source,
      example: exampleFor(jsonSchema),
    };
  }

  private async entryOf(kind: CatalogKind, def: Definition): Promise<CatalogEntry> {
    // Either kind's spec: the catalog kind says which fields are there.
    const spec: Partial<ComponentDefinition['spec'] & TraitDefinition['spec']> = def.spec;
    const workload = spec.workload?.definition as { apiVersion?: string; kind?: string } | undefined;
    return {
      name: def.metadata.name!,
      kind,
      namespace: def.metadata.namespace ?? '',
      description: def.metadata.annotations?.[DESCRIPTION_ANNOTATION] ?? '',
      ...(kind === 'component'
        ? {
            workloadKind: workload?.kind ?? spec.workload?.type,
            workloadResource: await this.resourceName(workload),
          }
        : {}),
      appliesTo: kind === 'trait' ? (spec.appliesToWorkloads ?? []) : [],
      conflictsWith: kind === 'trait' ? (spec.conflictsWith ?? []) : [],
      engine: def.spec.schematic.cue ? 'cue' : 'handlebars',
    };
  }

  /**
   * `deployments.apps` for apps/v1 Deployment (discovery, cached by the mapper); undefined when the
   * cluster does not serve it. Discovery failing is not an answer: that error goes to the caller.
   */
  private async resourceName(workload: { apiVersion?: string; kind?: string } | undefined) {
    if (!workload?.apiVersion || !workload.kind) return undefined;
    const kind = await this.cluster.mapper
      .kindFor({ apiVersion: workload.apiVersion, kind: workload.kind })
      .catch((err: unknown) => {
        if (err instanceof NoKindMatchError || isNotFound(err)) return undefined;
        throw err;
      });
    return kind ? (kind.group ? `${kind.plural}.${kind.group}` : kind.plural) : undefined;
  }

  /** The schema the controller published, else computed by the same renderer function. */
  private async parameterSchema(
    def: Definition,
  ): Promise<{ schema: Record<string, unknown>; source: 'configmap' | 'computed' }> {
    const cm = this.cluster.schemaConfigMaps.indexer.get(
      def.metadata.namespace,
      schemaConfigMapName(def.kind, def.metadata.name!),
    );
    const published = (cm?.data as Record<string, string> | undefined)?.[SCHEMA_KEY];
    if (published) {
      try {
        return { schema: JSON.parse(published) as Record<string, unknown>, source: 'configmap' };
      } catch {
        // A hand-edited, broken ConfigMap: compute it instead.
      }
    }
    try {
      return {
        schema: await parameterOpenApiSchema(def, this.cluster.renderer.compiler),
        source: 'computed',
      };
    } catch (err) {
      const errors =
        err instanceof RenderErrors ? err.errors : err instanceof RenderError ? [err] : undefined;
      if (!errors) throw err;
      // A template that timed out may compile on a less busy moment; one that does not compile never will.
      const status = errors.some((e) => e.source === 'timeout') ? 503 : 422;
      throw new ApiProblem(
        status,
        `the parameter schema of "${def.metadata.name}" cannot be computed: ${errors.map((e) => e.message).join('; ')}`,
      );
    }
  }
}

/** Whether a trait type applies to a component type (KubeVela's appliesToWorkloads: `*`, resource.group, kind, or type name). */
function appliesTo(trait: CatalogEntry, component: CatalogEntry): boolean {
  if (trait.appliesTo.length === 0) return true;
  return trait.appliesTo.some(
    (a) =>
      a === '*' ||
      a === component.name ||
      a === component.workloadResource ||
      (component.workloadKind !== undefined && a.toLowerCase() === component.workloadKind.toLowerCase()),
  );
}
