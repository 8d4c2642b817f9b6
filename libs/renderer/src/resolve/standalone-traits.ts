import type { ComponentDefinition } from '#api';
import { RenderError } from '../errors.js';
import type { ResolvedTrait } from './app-spec.js';
import { workloadNames } from './checks.js';

const conflicts = (a: ResolvedTrait, type: string) => (a.definition.spec.conflictsWith ?? []).includes(type);
const clash = (a: ResolvedTrait, b: ResolvedTrait) => conflicts(a, b.type) || conflicts(b, a.type);
const standalone = (t: ResolvedTrait) => t.origin.kind === 'Trait';
const nameOf = (t: ResolvedTrait) => (t.origin.kind === 'Trait' ? t.origin.name : '');
const createdOf = (t: ResolvedTrait) => (t.origin.kind === 'Trait' ? (t.origin.created ?? '') : '');

/**
 * Standalone Traits on one component, judged as the controller judges them
 * (docs/controller.md, "Components and Traits"): older first (creation time,
 * then name), one that does not apply to the workload, or has the type of or
 * conflicts with an older kept one, is skipped; a kept one overrides an
 * inline trait of its type or one it conflicts with (operators own how it
 * runs). Each skip is a warning, not an error: the rest still renders.
 */
export function judgeStandaloneTraits(
  componentType: string,
  definition: ComponentDefinition,
  traits: readonly ResolvedTrait[],
): { kept: ResolvedTrait[]; warnings: RenderError[] } {
  const names = new Set(workloadNames(componentType, definition));
  const warnings: RenderError[] = [];
  const accepted: ResolvedTrait[] = [];
  const candidates = traits
    .filter(standalone)
    .sort((a, b) => createdOf(a).localeCompare(createdOf(b)) || nameOf(a).localeCompare(nameOf(b)));
  for (const t of candidates) {
    const applies = t.definition.spec.appliesToWorkloads ?? [];
    const older = accepted.find((a) => a.type === t.type || clash(a, t));
    const why =
      applies.length > 0 && !applies.some((a) => names.has(a))
        ? `trait "${t.type}" does not apply to component type "${componentType}" (it applies to: ${applies.join(', ')})`
        : older
          ? `conflicts with the older Trait "${nameOf(older)}" (${older.type}) on the same component`
          : undefined;
    if (why) warnings.push(new RenderError(`${why}: skipped, as the controller skips it`, t.where));
    else accepted.push(t);
  }
  const kept = traits.filter((t) => {
    if (standalone(t)) return accepted.includes(t);
    const winner = accepted.find((a) => a.type === t.type || clash(a, t));
    if (winner)
      warnings.push(
        new RenderError(
          `overridden by Trait "${nameOf(winner)}" (${winner.type}), as the controller does`,
          t.where,
        ),
      );
    return !winner;
  });
  return { kept, warnings };
}
