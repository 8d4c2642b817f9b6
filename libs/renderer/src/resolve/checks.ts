import type { ComponentDefinition } from '#api';
import { parseApiVersion } from '#kube-core';
import { RenderError } from '../errors.js';
import type { ResolvedComponent } from './app-spec.js';
import { notApplicable } from './trait-rules.js';

/** The names a trait's `appliesToWorkloads` may use for a component: KubeVela accepts all of these. */
export function workloadNames(componentType: string, definition: ComponentDefinition): string[] {
  const names = ['*', componentType];
  const gvk = definition.spec.workload?.definition;
  if (gvk) {
    const { group, version } = parseApiVersion(gvk.apiVersion);
    const plural = `${gvk.kind.toLowerCase()}s`;
    names.push(gvk.kind, plural, group ? `${plural}.${group}` : plural, `${group}/${version}.${gvk.kind}`);
  }
  if (definition.spec.workload?.type) names.push(definition.spec.workload.type);
  return names;
}

/** Traits that do not apply to the component's workload, or that conflict with each other. */
export function checkTraits(component: ResolvedComponent): RenderError[] {
  const errors: RenderError[] = [];
  const names = new Set(workloadNames(component.type, component.definition));
  const types = component.traits.map((t) => t.type);
  for (const trait of component.traits) {
    const detail = notApplicable(trait.type, trait.definition, component.type, names);
    if (detail) errors.push(new RenderError(detail, trait.where));
    for (const other of trait.definition.spec.conflictsWith ?? []) {
      if (other !== trait.type && types.includes(other)) {
        errors.push(
          new RenderError(
            `trait "${trait.type}" conflicts with trait "${other}" on the same component`,
            trait.where,
          ),
        );
      }
    }
  }
  return errors;
}

/** dependsOn must name components of the same application, without cycles. */
export function checkDependencies(components: readonly ResolvedComponent[]): RenderError[] {
  const errors: RenderError[] = [];
  const byName = new Map(components.map((c) => [c.name, c]));
  for (const c of components) {
    for (const dep of c.dependsOn) {
      if (!byName.has(dep)) {
        const known = [...byName.keys()].join(', ');
        errors.push(new RenderError(`dependsOn "${dep}": no such component (components: ${known})`, c.where));
      }
    }
  }
  const cycle = findCycle(components);
  if (cycle)
    errors.push(new RenderError(`dependsOn forms a cycle: ${cycle.join(' → ')}`, components[0].where));
  return errors;
}

function findCycle(components: readonly ResolvedComponent[]): string[] | undefined {
  const deps = new Map(components.map((c) => [c.name, c.dependsOn]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (name: string): string[] | undefined => {
    if (state.get(name) === 'done') return undefined;
    if (state.get(name) === 'visiting') return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, 'visiting');
    stack.push(name);
    for (const d of deps.get(name) ?? []) {
      const found = deps.has(d) ? visit(d) : undefined;
      if (found) return found;
    }
    stack.pop();
    state.set(name, 'done');
    return undefined;
  };
  for (const c of components) {
    const found = visit(c.name);
    if (found) return found;
  }
  return undefined;
}

/** Components ordered so that each comes after what it depends on (stable otherwise). */
export function orderByDependencies<T extends { name: string; dependsOn: string[] }>(
  components: readonly T[],
): T[] {
  const done = new Set<string>();
  const out: T[] = [];
  const pending = [...components];
  while (pending.length > 0) {
    const i = pending.findIndex((c) =>
      c.dependsOn.every((d) => done.has(d) || !components.some((x) => x.name === d)),
    );
    const next = pending.splice(i === -1 ? 0 : i, 1)[0];
    done.add(next.name);
    out.push(next);
  }
  return out;
}
