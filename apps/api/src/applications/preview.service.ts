import { Injectable } from '@nestjs/common';
import {
  APPLICATIONS,
  COMPONENT_DEFINITIONS,
  COMPONENTS,
  TRAIT_DEFINITIONS,
  TRAITS,
  type Application,
  type Definition,
} from '#api';
import type { KubeObject } from '#kube-core';
import {
  classifyObject,
  inMemorySource,
  renderObjects,
  type OamObject,
  type RenderError,
  type RenderedObject,
} from '#renderer';
import { NAMESPACE_INDEX, type ResourceKind } from '#runtime';
import { ApiProblem, invalid, type FieldError } from '../http/problem.js';
import { ClusterService } from '../kube/cluster.service.js';

export type StoredKind = 'Application' | 'Component' | 'Trait';

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
    return this.parseAs('Application', body, namespace).object as Application;
  }

  /** A body validated as `kind` (its zod schema) in `namespace`; throws 422 with every error at its path. */
  parseAs(kind: StoredKind, body: unknown, namespace: string): OamObject {
    if (!isObject(body)) throw invalid([{ path: '', message: `the body must be a JSON object (a ${kind})` }]);
    const object = { ...(body as KubeObject) };
    const meta = { ...(object.metadata ?? {}) };
    if (meta.namespace && meta.namespace !== namespace)
      throw invalid([
        { path: 'metadata.namespace', message: `is "${meta.namespace}", but the URL says "${namespace}"` },
      ]);
    object.metadata = { ...meta, namespace };
    delete object.status;
    const result = classifyObject({ object: object as never, source: inMemorySource('request') });
    if (!result.value || result.value.kind !== kind) {
      const errors = result.errors.length
        ? result.errors.map(fieldError)
        : [{ path: 'kind', message: `expected a ${kind}` }];
      throw invalid(errors);
    }
    return result.value;
  }

  /** Renders an Application with what it uses from the caches; throws 422 with every error at its path. */
  async render(app: Application, signal?: AbortSignal): Promise<Preview> {
    const namespace = app.metadata.namespace!;
    const own: OamObject = { kind: 'Application', object: app, source: inMemorySource('request') };
    const result = await this.renderInputs([own, ...this.usedBy(app)], namespace, signal);
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

  /**
   * Checks that a standalone Component, or a Trait, renders where it goes: a
   * Component with the Traits that target it; a Trait (replacing the stored
   * one of its name) on its target, when the target exists yet.
   */
  async check(input: OamObject): Promise<void> {
    if (input.kind === 'Application') return void (await this.render(input.object));
    const namespace = input.object.metadata.namespace!;
    const traits = (match: (t: KubeObject) => boolean) =>
      this.inNamespace(TRAITS, namespace)
        .filter((t) => t.metadata?.name !== input.object.metadata.name || input.kind !== 'Trait')
        .filter(match)
        .map((t) => this.sourced('Trait', t))
        .filter((t): t is OamObject => !!t);
    if (input.kind === 'Component') {
      const own = traits((t) => isTargetOf(t, input.object.metadata.name!, undefined));
      await this.renderInputs([input, ...own], namespace);
      return;
    }
    if (input.kind !== 'Trait') return;
    const { component, application } = input.object.spec.target;
    if (application) {
      const app = this.cluster.informer(APPLICATIONS).indexer.get(namespace, application);
      if (!app) return; // applied before its Application: checked when that is written
      const others = this.usedBy(app).filter(
        (o) => !(o.kind === 'Trait' && o.object.metadata.name === input.object.metadata.name),
      );
      await this.renderInputs(
        [{ kind: 'Application', object: app, source: inMemorySource('cache') }, ...others, input],
        namespace,
      );
      return;
    }
    const target = this.inNamespace(COMPONENTS, namespace).find((c) => c.metadata?.name === component);
    const sourced = target && this.sourced('Component', target);
    if (!sourced) return; // applied before its Component: checked when that is written
    await this.renderInputs(
      [sourced, ...traits((t) => isTargetOf(t, component, undefined)), input],
      namespace,
    );
  }

  /** The Components an Application references and the Traits that target it, from the caches. */
  private usedBy(app: Application): OamObject[] {
    const namespace = app.metadata.namespace!;
    const refs = new Set(app.spec.components.map((c) => c.componentRef).filter(Boolean));
    const components = this.inNamespace(COMPONENTS, namespace)
      .filter((c) => refs.has(c.metadata!.name!))
      .map((c) => this.sourced('Component', c));
    const traits = this.inNamespace(TRAITS, namespace)
      .filter((t) => t.spec?.target?.application === app.metadata.name)
      .map((t) => this.sourced('Trait', t));
    return [...components, ...traits].filter((o): o is OamObject => !!o);
  }

  private async renderInputs(objects: OamObject[], namespace: string, signal?: AbortSignal) {
    const system = this.cluster.options.systemNamespace;
    const definitions = [COMPONENT_DEFINITIONS, TRAIT_DEFINITIONS].flatMap((k: ResourceKind<Definition>) => [
      ...this.inNamespace(k, namespace),
      ...(namespace === system ? [] : this.inNamespace(k, system)),
    ]);
    const result = await renderObjects(objects, this.cluster.renderer.renderer, {
      builtins: definitions,
      defaultNamespace: namespace,
      signal,
    });
    const timedOut = result.errors.find((e) => e.source === 'timeout');
    if (timedOut) throw new ApiProblem(503, `rendering did not finish: ${timedOut.message}`);
    if (result.errors.length) throw invalid(result.errors.map(fieldError));
    return result;
  }

  private inNamespace<T extends KubeObject>(kind: ResourceKind<T>, namespace: string): T[] {
    return this.cluster.informer(kind).indexer.byIndex(NAMESPACE_INDEX, namespace);
  }

  /** A cached object as renderer input; one that does not validate is left out (its own writer sees why). */
  private sourced(kind: 'Component' | 'Trait', obj: KubeObject): OamObject | undefined {
    const result = classifyObject({
      object: obj as never,
      source: inMemorySource(`${kind} ${obj.metadata?.name}`),
    });
    return result.value;
  }
}

function isTargetOf(trait: KubeObject, component: string, application: string | undefined): boolean {
  const target = (trait.spec as { target?: { component?: string; application?: string } })?.target;
  return target?.component === component && target?.application === application;
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
