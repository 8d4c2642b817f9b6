import { Injectable } from '@nestjs/common';
import type { Application, Definition } from '#api';
import type { KubeObject } from '#kube-core';
import {
  classifyObject,
  inMemorySource,
  renderObjects,
  type OamObject,
  type RenderError,
  type RenderedObject,
} from '#renderer';
import { NAMESPACE_INDEX } from '#runtime';
import { ApiProblem, invalid, type FieldError } from '../http/problem.js';
import { ClusterService } from '../kube/cluster.service.js';
import { COMPONENT_DEFINITIONS, COMPONENTS, TRAIT_DEFINITIONS, TRAITS } from '../kube/kinds.js';

export interface Preview {
  objects: { component: string; role: 'workload' | 'trait'; trait?: string; object: KubeObject }[];
  warnings: FieldError[];
}

/**
 * Validates an Application body with its kind's zod schema, then renders it
 * with the renderer the controller uses, against the definitions, Components
 * and Traits the caches hold: the objects it would apply, or a 422 listing
 * every error at its field path. Nothing is written.
 */
@Injectable()
export class PreviewService {
  constructor(private readonly cluster: ClusterService) {}

  /** The validated Application; throws 422 with every schema error at its path. */
  parse(body: unknown, namespace: string): Application {
    const object = { ...(body as KubeObject) };
    if (!isObject(body))
      throw invalid([{ path: '', message: 'the body must be a JSON object (an Application)' }]);
    const meta = { ...(object.metadata ?? {}) };
    if (meta.namespace && meta.namespace !== namespace)
      throw invalid([
        { path: 'metadata.namespace', message: `is "${meta.namespace}", but the URL says "${namespace}"` },
      ]);
    object.metadata = { ...meta, namespace };
    delete object.status;
    const result = classifyObject({ object: object as never, source: inMemorySource('request') });
    if (!result.value || result.value.kind !== 'Application') {
      const errors = result.errors.length
        ? result.errors.map(fieldError)
        : [{ path: 'kind', message: 'expected an Application' }];
      throw invalid(errors);
    }
    return result.value.object;
  }

  /** Renders; throws 422 with every error at its path. */
  async render(app: Application): Promise<Preview> {
    const namespace = app.metadata.namespace!;
    const objects: OamObject[] = [{ kind: 'Application', object: app, source: inMemorySource('request') }];
    const refs = new Set(app.spec.components.map((c) => c.componentRef).filter(Boolean));
    for (const c of this.inNamespace(COMPONENTS, namespace))
      if (refs.has(c.metadata!.name!)) objects.push(this.sourced('Component', c));
    for (const t of this.inNamespace(TRAITS, namespace))
      if ((t.spec as { target?: { application?: string } })?.target?.application === app.metadata.name)
        objects.push(this.sourced('Trait', t));
    const system = this.cluster.options.systemNamespace;
    const definitions = [COMPONENT_DEFINITIONS, TRAIT_DEFINITIONS].flatMap((k) => [
      ...this.inNamespace(k, namespace),
      ...(namespace === system ? [] : this.inNamespace(k, system)),
    ]) as unknown as Definition[];
    const result = await renderObjects(objects, this.cluster.renderer.renderer, {
      builtins: definitions,
      defaultNamespace: namespace,
    });
    const timedOut = result.errors.find((e) => e.source === 'timeout');
    if (timedOut) throw new ApiProblem(503, `rendering did not finish: ${timedOut.message}`);
    if (result.errors.length) throw invalid(result.errors.map(fieldError));
    const rendered = result.apps.find((a) => a.app.name === app.metadata.name) ?? result.apps[0];
    return {
      objects: (rendered?.objects ?? []).map((o: RenderedObject) => ({
        component: o.component,
        role: o.role,
        ...(o.traitType ? { trait: o.traitType } : {}),
        object: o.object as KubeObject,
      })),
      warnings: result.warnings.map(fieldError),
    };
  }

  private inNamespace(kind: typeof COMPONENTS, namespace: string): KubeObject[] {
    return this.cluster.informer(kind).indexer.byIndex(NAMESPACE_INDEX, namespace);
  }

  /** A cached object as renderer input; the cache already validated nothing, so classify it. */
  private sourced(kind: 'Component' | 'Trait', obj: KubeObject): OamObject {
    const result = classifyObject({
      object: obj as never,
      source: inMemorySource(`${kind} ${obj.metadata?.name}`),
    });
    return result.value ?? ({ kind, object: obj, source: inMemorySource(kind) } as unknown as OamObject);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A renderer error at its path in the Application: the location's subject
 * (`components[1] "api" (webservice), traits[0] (gateway)`) names where in
 * `spec` the field path (`properties.port`) is.
 */
export function fieldError(e: RenderError): FieldError {
  const { subject, path } = e.location;
  const component = subject ? /components\[(\d+)\]/.exec(subject) : null;
  const trait = subject ? /traits\[(\d+)\]/.exec(subject) : null;
  const prefix = component ? `spec.components[${component[1]}]${trait ? `.traits[${trait[1]}]` : ''}` : '';
  const full = [prefix, path].filter(Boolean).join('.');
  const where = !component && subject ? `${subject}: ` : '';
  const prefixDef = e.source === 'definition' ? 'definition error: ' : '';
  return { path: full, message: `${where}${prefixDef}${e.detail}` };
}
