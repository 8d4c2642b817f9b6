/**
 * structured-merge-diff's Updater.update: after a change from `live` to `next`, every other
 * manager loses the fields the change modified or added (their conflicts) and the fields
 * it removed.
 */
import type { FieldSet } from '../fieldpath/set.js';
import type { Conflict } from './conflicts.js';
import type { Managers } from './managers.js';
import type { Comparison } from './typed.js';

export function takeOwnership(
  managers: Managers,
  actingId: string,
  comparison: Comparison,
): { managers: Managers; conflicts: Conflict[] } {
  const changed: FieldSet = comparison.modified.union(comparison.added);
  const out: Managers = new Map();
  const conflicts: Conflict[] = [];
  for (const [id, state] of managers) {
    if (id === actingId) {
      out.set(id, state);
      continue;
    }
    const lost = state.set.intersection(changed);
    for (const path of lost.paths()) conflicts.push({ owner: state, path });
    const set = state.set.difference(lost).difference(comparison.removed);
    if (!set.isEmpty()) out.set(id, { ...state, set });
  }
  return { managers: out, conflicts };
}
