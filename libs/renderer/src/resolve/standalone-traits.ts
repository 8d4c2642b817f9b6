import type { ComponentDefinition } from '#api';
import { RenderError } from '../errors.js';
import type { ResolvedTrait } from './app-spec.js';
import { workloadNames } from './checks.js';
import { conflictsWithOlder, notApplicable, olderFirst, rivalIn } from './trait-rules.js';

const standalone = (t: ResolvedTrait) => t.origin.kind === 'Trait';
const nameOf = (t: ResolvedTrait) => (t.origin.kind === 'Trait' ? t.origin.name : '');
const age = (t: ResolvedTrait) => (t.origin.kind === 'Trait' ? t.origin : {});

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
  const candidates = traits.filter(standalone).sort((a, b) => olderFirst(age(a), age(b)));
  for (const t of candidates) {
    const older = rivalIn(accepted, t.type, t.definition);
    const why =
      notApplicable(t.type, t.definition, componentType, names) ??
      (older ? conflictsWithOlder({ name: nameOf(older), type: older.type }) : undefined);
    if (why) warnings.push(new RenderError(`${why}: skipped, as the controller skips it`, t.where));
    else accepted.push(t);
  }
  const kept = traits.filter((t) => {
    if (standalone(t)) return accepted.includes(t);
    const winner = rivalIn(accepted, t.type, t.definition);
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
