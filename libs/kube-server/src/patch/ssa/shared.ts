/** Pieces shared by apply and update. */
import { isJsonObject, type JsonObject } from '#kube-core';
import { managerId, type Managers } from './managers.js';

/** The object without metadata.managedFields (ownership is never tracked on it). */
export function withoutManagedFields(obj: object): JsonObject {
  const source = obj as JsonObject;
  if (!isJsonObject(source.metadata) || !('managedFields' in source.metadata)) return { ...source };
  const metadata = { ...source.metadata };
  delete metadata.managedFields;
  return { ...source, metadata };
}

export const MAX_UPDATE_MANAGERS = 10;
const ANCIENT = 'ancient-changes';

/**
 * kube's capManagersManager: beyond ten Update managers, the oldest are merged, per
 * apiVersion, into an `ancient-changes` entry, so managedFields cannot grow without bound.
 */
export function capUpdateManagers(managers: Managers): Managers {
  const updaters = [...managers].filter(([, state]) => state.operation === 'Update');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return managers;
  const out: Managers = new Map(managers);
  updaters.sort(([, a], [, b]) => (a.time ?? '').localeCompare(b.time ?? ''));
  const firstByVersion = new Map<string, string>();
  let count = updaters.length;
  for (const [id, state] of updaters) {
    if (count <= MAX_UPDATE_MANAGERS) break;
    const first = firstByVersion.get(state.apiVersion);
    if (first === undefined) {
      firstByVersion.set(state.apiVersion, id);
      continue;
    }
    const bucketId = managerId({ manager: ANCIENT, operation: 'Update', apiVersion: state.apiVersion });
    const bucket = out.get(bucketId) ?? out.get(first);
    if (!out.has(bucketId)) out.delete(first);
    out.set(bucketId, {
      manager: ANCIENT,
      operation: 'Update',
      apiVersion: state.apiVersion,
      ...(state.time ? { time: state.time } : {}),
      set: state.set.union(bucket?.set ?? state.set),
    });
    out.delete(id);
    count--;
  }
  return out;
}
