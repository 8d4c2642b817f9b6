/** The 409 of a conflicting apply, worded as kube's internal.NewConflictError. */
import { ApiError } from '../../errors.js';
import { pathString, type PathElement } from '../fieldpath/element.js';
import { describeManager, type ManagerState } from './managers.js';

export interface Conflict {
  owner: ManagerState;
  path: PathElement[];
}

export function conflictError(conflicts: Conflict[]): ApiError {
  const sorted = [...conflicts].sort((a, b) =>
    describeManager(a.owner) < describeManager(b.owner)
      ? -1
      : describeManager(a.owner) > describeManager(b.owner)
        ? 1
        : 0,
  );
  const causes = sorted.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${describeManager(c.owner)}`,
    field: pathString(c.path),
  }));
  return new ApiError(409, 'Conflict', conflictMessage(sorted), { causes });
}

function conflictMessage(conflicts: Conflict[]): string {
  if (conflicts.length === 1) {
    const [only] = conflicts;
    return `Apply failed with 1 conflict: conflict with ${describeManager(only.owner)}: ${pathString(only.path)}`;
  }
  const byManager = new Map<string, string[]>();
  for (const c of conflicts) {
    const name = describeManager(c.owner);
    byManager.set(name, [...(byManager.get(name) ?? []), pathString(c.path)]);
  }
  const lines = [...byManager.keys()]
    .sort()
    .flatMap((name) => [
      `conflicts with ${name}:`,
      ...(byManager.get(name) ?? []).map((path) => `- ${path}`),
    ]);
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}
