import type { Application, Component, Trait } from '#api';
import { RenderError, type ErrorLocation } from '../errors.js';
import type { OamObject } from '../parse/index.js';
import type { AppSpec, ResolvedComponent } from './app-spec.js';
import type { DefinitionCatalog } from './catalog.js';
import { checkDependencies } from './checks.js';
import {
  fieldLine,
  resolveComponent,
  traitObjectInput,
  type ComponentInput,
  type Sourced,
  type TraitInput,
} from './component.js';
import { unappliedSpecWarnings } from './unapplied.js';

export interface ResolveOptions {
  /** Namespace of objects that do not name one. */
  defaultNamespace?: string;
}

/**
 * Joins Applications, standalone Components and standalone Traits into
 * AppSpecs, and looks up every definition. A Component that no Application
 * references deploys as its own one-component application; a Trait attaches
 * to the component it targets. All problems are collected, none thrown.
 */
export function resolveObjects(
  objects: readonly OamObject[],
  catalog: DefinitionCatalog,
  options: ResolveOptions = {},
): { apps: AppSpec[]; errors: RenderError[]; warnings: RenderError[] } {
  const ns = (o: { metadata: { namespace?: string } }) =>
    o.metadata.namespace ?? options.defaultNamespace ?? 'default';
  const pick = <K extends OamObject['kind']>(kind: K) =>
    objects.filter((o) => o.kind === kind) as unknown as Sourced<Extract<OamObject, { kind: K }>['object']>[];
  const apps = pick('Application');
  const components = pick('Component');
  const traits = pick('Trait');
  const errors: RenderError[] = [];
  const warnings: RenderError[] = [];
  const usedTraits = new Set<Sourced<Trait>>();
  const referenced = new Set<Sourced<Component>>();

  const traitsFor = (namespace: string, component: string, application?: string) =>
    traits.filter((t) => {
      const target = t.object.spec.target;
      const hit =
        ns(t.object) === namespace && target.component === component && target.application === application;
      if (hit) usedTraits.add(t);
      return hit;
    });

  const specs: AppSpec[] = [];
  for (const app of apps) {
    const namespace = ns(app.object);
    const resolved: ResolvedComponent[] = [];
    app.object.spec.components.forEach((entry, index) => {
      const path = ['spec', 'components', index];
      const where: ErrorLocation = {
        file: app.source.file,
        line: app.source.lineOf(path),
        object: `Application "${app.object.metadata.name}"`,
        subject: `components[${index}] "${entry.name}"${entry.type ? ` (${entry.type})` : ''}`,
      };
      let base: ComponentInput;
      let standaloneTraits: Sourced<Trait>[] = [];
      if (entry.componentRef) {
        const ref = components.find(
          (c) => c.object.metadata.name === entry.componentRef && ns(c.object) === namespace,
        );
        if (!ref) {
          errors.push(
            new RenderError(`no Component "${entry.componentRef}" in namespace "${namespace}"`, {
              ...where,
              path: 'componentRef',
              line: app.source.lineOf([...path, 'componentRef']),
            }),
          );
          return;
        }
        referenced.add(ref);
        base = {
          type: ref.object.spec.type,
          properties: ref.object.spec.properties ?? {},
          where: {
            file: ref.source.file,
            line: ref.source.line,
            object: `Component "${entry.componentRef}" (${ref.object.spec.type})`,
            subject: `used by Application "${app.object.metadata.name}" as "${entry.name}"`,
          },
          lineOf: fieldLine(ref.source),
          propPath: ['spec', 'properties'],
          typePath: ['spec', 'type'],
        };
        standaloneTraits = traitsFor(namespace, entry.componentRef);
      } else {
        base = {
          type: entry.type!,
          properties: entry.properties ?? {},
          where,
          lineOf: fieldLine(app.source),
          propPath: [...path, 'properties'],
          typePath: [...path, 'type'],
        };
      }
      const inline: TraitInput[] = (entry.traits ?? []).map((t, i) => ({
        type: t.type,
        properties: t.properties ?? {},
        origin: { kind: 'inline', index: i },
        where: {
          ...where,
          subject: `${where.subject}, traits[${i}] (${t.type})`,
          line: app.source.lineOf([...path, 'traits', i]),
        },
        typeLine: app.source.lineOf([...path, 'traits', i, 'type']),
        lineOf: (p) => fieldLine(app.source)([...path, 'traits', i, 'properties', ...p]),
      }));
      const attached = [
        ...standaloneTraits,
        ...traitsFor(namespace, entry.name, app.object.metadata.name),
      ].map(traitObjectInput);
      const component = resolveComponent(
        entry.name,
        base,
        [...inline, ...attached],
        entry.dependsOn ?? [],
        namespace,
        catalog,
        errors,
        warnings,
      );
      if (component) resolved.push(component);
    });
    errors.push(...checkDependencies(resolved));
    warnings.push(...unappliedSpecWarnings(app.object, app.source));
    specs.push(appSpec(app, namespace, resolved));
  }

  for (const comp of components) {
    if (
      referenced.has(comp) ||
      apps.some((a) =>
        a.object.spec.components.some(
          (c) => c.componentRef === comp.object.metadata.name && ns(a.object) === ns(comp.object),
        ),
      )
    )
      continue;
    const namespace = ns(comp.object);
    const name = comp.object.metadata.name!;
    const where: ErrorLocation = {
      file: comp.source.file,
      line: comp.source.line,
      object: `Component "${name}" (${comp.object.spec.type})`,
    };
    const base = {
      type: comp.object.spec.type,
      properties: comp.object.spec.properties ?? {},
      where,
      lineOf: fieldLine(comp.source),
      propPath: ['spec', 'properties'],
      typePath: ['spec', 'type'],
    };
    const component = resolveComponent(
      name,
      base,
      traitsFor(namespace, name).map(traitObjectInput),
      [],
      namespace,
      catalog,
      errors,
      warnings,
    );
    if (component) specs.push(standaloneSpec(comp, namespace, component));
  }

  for (const t of traits) {
    if (usedTraits.has(t)) continue;
    const target = t.object.spec.target;
    const what = target.application
      ? `component "${target.component}" of Application "${target.application}"`
      : `Component "${target.component}"`;
    errors.push(
      new RenderError(`target ${what} not found in namespace "${ns(t.object)}"`, {
        file: t.source.file,
        line: t.source.lineOf(['spec', 'target']),
        object: `Trait "${t.object.metadata.name}"`,
        path: 'spec.target',
      }),
    );
  }
  return { apps: specs, errors, warnings };
}

function appSpec(app: Sourced<Application>, namespace: string, components: ResolvedComponent[]): AppSpec {
  const meta = app.object.metadata;
  return {
    name: meta.name!,
    namespace,
    owner: { kind: 'Application', name: meta.name!, uid: meta.uid },
    labels: meta.labels ?? {},
    annotations: meta.annotations ?? {},
    components,
    policies: app.object.spec.policies ?? [],
    workflow: app.object.spec.workflow,
    source: app.source,
  };
}

function standaloneSpec(comp: Sourced<Component>, namespace: string, component: ResolvedComponent): AppSpec {
  const meta = comp.object.metadata;
  return {
    name: meta.name!,
    namespace,
    owner: { kind: 'Component', name: meta.name!, uid: meta.uid },
    labels: meta.labels ?? {},
    annotations: meta.annotations ?? {},
    components: [component],
    policies: [],
    source: comp.source,
  };
}
