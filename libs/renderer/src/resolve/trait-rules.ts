import type { TraitDefinition } from '#api';

/**
 * The rules for which traits a component keeps, written once: inline checks
 * (checks.ts), `oam render`'s prediction for standalone Traits
 * (standalone-traits.ts) and the controller's join all apply these
 * (docs/controller.md, "Components and Traits").
 */

/** Why a trait cannot be on the component (its `appliesToWorkloads` names none of `workloads`), or undefined. */
export function notApplicable(
  traitType: string,
  definition: TraitDefinition,
  componentType: string,
  workloads: ReadonlySet<string>,
): string | undefined {
  const applies = definition.spec.appliesToWorkloads ?? [];
  if (applies.length === 0 || applies.some((a) => workloads.has(a))) return undefined;
  return `trait "${traitType}" does not apply to component type "${componentType}" (it applies to: ${applies.join(', ')})`;
}

/** Standalone Traits, older first: creation time, then name. The older one keeps its place. */
export function olderFirst(
  a: { created?: string; name?: string },
  b: { created?: string; name?: string },
): number {
  return (a.created ?? '').localeCompare(b.created ?? '') || (a.name ?? '').localeCompare(b.name ?? '');
}

const conflicts = (d: TraitDefinition | undefined, type: string) =>
  (d?.spec.conflictsWith ?? []).includes(type);

/**
 * The kept trait that a trait of `type` gives way to: one of the same type, or
 * one where either declares `conflictsWith` the other (`definition`: the
 * newcomer's, when known).
 */
export function rivalIn<T extends { type: string; definition: TraitDefinition }>(
  kept: readonly T[],
  type: string,
  definition?: TraitDefinition,
): T | undefined {
  return kept.find((k) => k.type === type || conflicts(k.definition, type) || conflicts(definition, k.type));
}

/** Why a standalone Trait gave way to `older` (its name and type). */
export const conflictsWithOlder = (older: { name: string; type: string }): string =>
  `conflicts with the older Trait "${older.name}" (${older.type}) on the same component`;
