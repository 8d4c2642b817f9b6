import type { Definition } from '#api';
import { hashOf, type TypedObject } from '#kube-core';
import type { CompiledTemplate, EvalScope, RenderContext, TemplateResult } from '../engines/engine.js';
import { schematicHash, type TemplateCompiler } from '../engines/compiler.js';
import { RenderError, RenderErrors } from '../errors.js';
import { validateProperties } from '../params/index.js';
import { applyPatch } from '../patch/index.js';
import type { AppSpec, ResolvedComponent, ResolvedTrait } from '../resolve/index.js';
import { assemble, generatedName } from './assemble.js';
import { RenderCache } from './cache.js';
import { LimitMemory } from './limit-memory.js';
import { componentContext, DEFAULT_CLUSTER, traitContext, type ClusterInfo } from './context.js';
import { markAutoscaledReplicas } from './hpa.js';
import { AUXILIARY_WORKLOAD } from './labels.js';
import {
  RenderFailure,
  type RenderedApp,
  type RenderedComponent,
  type RenderedObject,
  type RenderOptions,
} from './result.js';

export interface RendererOptions {
  compiler: TemplateCompiler;
  cache?: RenderCache;
  cluster?: ClusterInfo;
  /** Evaluations that hit a limit, answered from memory for a while (default: a new one). */
  limitMemory?: LimitMemory;
}

/**
 * Turns a resolved application into Kubernetes objects. Pure in the sense
 * that matters: the same AppSpec always gives the same objects, in the same
 * order, and nothing here does I/O (engines evaluate in worker threads).
 * Throws a RenderFailure (RenderErrors) with every problem found in the
 * application and the warnings found on the way.
 */
export class Renderer {
  readonly cache: RenderCache;
  readonly limitMemory: LimitMemory;
  private readonly cluster: ClusterInfo;

  constructor(private readonly options: RendererOptions) {
    this.cache = options.cache ?? new RenderCache();
    this.limitMemory = options.limitMemory ?? new LimitMemory();
    this.cluster = options.cluster ?? DEFAULT_CLUSTER;
  }

  async render(app: AppSpec, options: RenderOptions = {}): Promise<RenderedApp> {
    const errors: RenderError[] = [];
    const components: RenderedComponent[] = [];
    // Components render concurrently (the worker pool runs them in parallel); each keeps its own
    // warnings so the report comes out in component order whatever finished first.
    const perComponent = app.components.map(() => [] as RenderError[]);
    const results = await Promise.allSettled(
      app.components.map((c, i) => this.renderComponent(app, c, options, perComponent[i])),
    );
    results.forEach((r) => {
      if (r.status === 'fulfilled') components.push(r.value);
      else errors.push(...asRenderErrors(r.reason));
    });
    const warnings = perComponent.flat();
    if (errors.length > 0) throw new RenderFailure(errors, warnings);
    return { app, components, objects: components.flatMap((c) => c.objects), warnings };
  }

  private async renderComponent(
    app: AppSpec,
    component: ResolvedComponent,
    options: RenderOptions,
    warnings: RenderError[],
  ): Promise<RenderedComponent> {
    const context = componentContext(app, component, options.cluster ?? this.cluster);
    const base = await this.evaluate(
      component.definition,
      component.properties,
      context,
      component,
      options,
      warnings,
    );
    if (!base.output) {
      throw new RenderError(
        'the template produced no `output` (the workload)',
        component.where,
        'definition',
      );
    }
    let workloadObject = assemble(base.output, app, {
      component: component.name,
      role: 'workload',
      type: component.type,
      defaultName: component.name,
    });
    const auxiliary = sortedOutputs(base.outputs).map(([name, obj]) =>
      this.placeTrait(app, component, obj, AUXILIARY_WORKLOAD, name),
    );
    const traitObjects: RenderedObject[] = [];
    const outputsSoFar: Record<string, TypedObject> = Object.fromEntries(
      auxiliary.map((o) => [o.outputName!, o.object]),
    );
    for (const trait of component.traits) {
      const ctx = traitContext(context, workloadObject, outputsSoFar);
      const result = await this.evaluate(trait.definition, trait.properties, ctx, trait, options, warnings);
      if (result.patch) {
        const patched = locatedAt(trait, () =>
          applyPatch(workloadObject, result.patch!, result.patchKeys),
        ) as TypedObject;
        workloadObject = assemble(patched, app, {
          component: component.name,
          role: 'workload',
          type: component.type,
          defaultName: component.name,
        });
      }
      if (result.output)
        traitObjects.push(this.placeTrait(app, component, result.output, trait.type, trait.type));
      for (const [name, obj] of sortedOutputs(result.outputs)) {
        const placed = this.placeTrait(app, component, obj, trait.type, name);
        outputsSoFar[name] = placed.object;
        traitObjects.push(placed);
      }
    }
    const workload: RenderedObject = {
      object: workloadObject,
      component: component.name,
      role: 'workload',
      omitOnApply: [],
    };
    const rendered: RenderedComponent = {
      name: component.name,
      type: component.type,
      context,
      workload,
      objects: [workload, ...auxiliary, ...traitObjects],
    };
    warnings.push(...markAutoscaledReplicas(rendered).map((w) => w.within(component.where)));
    return rendered;
  }

  private placeTrait(
    app: AppSpec,
    component: ResolvedComponent,
    obj: TypedObject,
    type: string,
    outputName: string,
  ): RenderedObject {
    const object = assemble(obj, app, {
      component: component.name,
      role: 'trait',
      type,
      outputName,
      defaultName: generatedName(component.name, type === outputName ? type : `${type}-${outputName}`),
    });
    return { object, component: component.name, role: 'trait', traitType: type, outputName, omitOnApply: [] };
  }

  /**
   * Validates properties, then evaluates the template, through the cache.
   * Whatever fails here (the schema export, validation, evaluation, a
   * limit) is reported at the component or trait it concerns. An input that hit a
   * limit is answered from `limitMemory` while its backoff runs.
   */
  private async evaluate(
    definition: Definition,
    properties: Record<string, unknown>,
    context: RenderContext,
    subject: ResolvedComponent | ResolvedTrait,
    options: RenderOptions,
    warnings: RenderError[],
  ): Promise<TemplateResult> {
    const scope: EvalScope = { tenant: options.tenant ?? context.namespace, signal: options.signal };
    // Everything the evaluation depends on; hashed only while some input is remembered.
    const input = () =>
      hashOf({
        definition: schematicHash(definition.spec.schematic),
        name: definition.metadata.name,
        properties,
        context,
      });
    const memory = this.limitMemory;
    try {
      const recalled = memory.size > 0 ? memory.recall(input()) : undefined;
      if (recalled) throw new RecalledErrors(recalled);
      const result = await this.evaluateTemplate(
        definition,
        properties,
        context,
        subject,
        options,
        warnings,
        scope,
      );
      if (memory.size > 0) memory.forget(input());
      return result;
    } catch (err) {
      const errors = asRenderErrors(err);
      const limited = errors.filter((e) => e.source === 'timeout');
      if (limited.length > 0 && !(err instanceof RecalledErrors)) memory.remember(input(), limited);
      throw new RenderErrors(errors.map((e) => locate(e, subject)));
    }
  }

  private async evaluateTemplate(
    definition: Definition,
    properties: Record<string, unknown>,
    context: RenderContext,
    subject: ResolvedComponent | ResolvedTrait,
    options: RenderOptions,
    warnings: RenderError[],
    scope: EvalScope,
  ): Promise<TemplateResult> {
    const template: CompiledTemplate = this.options.compiler.compile(definition);
    // CUE decides for CUE templates (its schema only words and warns); Handlebars has its schema.
    const checked = template.validate
      ? await template.validate(properties, { strict: options.strict }, scope)
      : validateProperties(await template.parameterSchema(), properties, {
          strict: options.strict,
          applyDefaults: Boolean(definition.spec.schematic.handlebars),
        });
    const issue = (i: { message: string; path: string }) => new RenderError(i.message, { path: i.path });
    warnings.push(
      ...checked.issues.filter((i) => i.severity === 'warning').map((i) => locate(issue(i), subject)),
    );
    const problems = checked.issues.filter((i) => i.severity === 'error');
    if (problems.length > 0) throw new RenderErrors(problems.map(issue));

    const parameter = checked.value;
    const read = template.readContext ? await template.readContext(context) : context;
    const key = hashOf({
      definition: schematicHash(definition.spec.schematic),
      name: definition.metadata.name,
      parameter,
      context: read,
    });
    const hit = this.cache.get(key);
    if (hit) return hit;
    return this.cache.set(key, await template.evaluate({ parameter, context: read, ...scope }));
  }
}

/** Runs `step`, reporting its errors at `subject` (a trait's patch that cannot be applied, say). */
function locatedAt<T>(subject: ResolvedComponent | ResolvedTrait, step: () => T): T {
  try {
    return step();
  } catch (err) {
    throw new RenderErrors(asRenderErrors(err).map((e) => locate(e, subject)));
  }
}

/** An error with the file, object and component or trait filled in, and the line of its property if it has one. */
function locate(e: RenderError, subject: ResolvedComponent | ResolvedTrait): RenderError {
  const line = (e.location.path && lineOf(subject, e.location.path)) || subject.where.line;
  return e.within({ ...subject.where, line });
}

function sortedOutputs(outputs: Record<string, TypedObject>): [string, TypedObject][] {
  return Object.entries(outputs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `properties.ports[0].port` → the line of that field in the user's file. */
function lineOf(subject: ResolvedComponent | ResolvedTrait, path: string): number | undefined {
  if (!path.startsWith('properties')) return undefined;
  const segments = [...path.slice('properties'.length).matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((m) =>
    m[2] !== undefined ? Number(m[2]) : m[1],
  );
  return subject.lineOfProperty(segments);
}

/** Errors answered from LimitMemory: remembering them again would extend their backoff. */
class RecalledErrors extends RenderErrors {}

export function asRenderErrors(err: unknown): RenderError[] {
  if (err instanceof RenderErrors) return err.errors;
  if (Array.isArray(err) && err.every((e) => e instanceof RenderError)) return err;
  if (err instanceof RenderError) return [err];
  throw err; // a bug, not bad input: let it surface with its stack
}
