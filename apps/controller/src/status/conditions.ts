import type { Condition } from '#api';

export type ConditionInput = Omit<Condition, 'lastTransitionTime' | 'observedGeneration'>;

/**
 * The new condition list: each input condition keeps its previous
 * lastTransitionTime unless its status changed (API conventions), carries the
 * generation it describes, and types not given are dropped.
 */
export function mergeConditions(
  previous: readonly Condition[] | undefined,
  next: readonly ConditionInput[],
  generation: number | undefined,
  now: string,
): Condition[] {
  return next.map((c) => {
    const old = previous?.find((p) => p.type === c.type);
    const lastTransitionTime =
      old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : now;
    return {
      type: c.type,
      status: c.status,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
      lastTransitionTime,
      ...(generation !== undefined ? { observedGeneration: generation } : {}),
    };
  });
}

export const isTrue = (conditions: readonly Condition[] | undefined, type: string): boolean =>
  conditions?.find((c) => c.type === type)?.status === 'True';
