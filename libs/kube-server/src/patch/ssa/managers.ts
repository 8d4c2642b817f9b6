/**
 * metadata.managedFields: decoding entries into field sets per manager, encoding them back
 * in kube's order, and the manager identities (an Apply manager is one per name and
 * subresource; an Update manager one per name, apiVersion and subresource).
 */
import { FieldSet } from '../fieldpath/set.js';
import { isJsonObject } from '#kube-core';

export type Operation = 'Apply' | 'Update';

export interface ManagedFieldsEntry {
  manager: string;
  operation: Operation;
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

export interface ManagerState {
  manager: string;
  operation: Operation;
  apiVersion: string;
  time?: string;
  subresource?: string;
  set: FieldSet;
}

export type Managers = Map<string, ManagerState>;

export function managerId(
  state: Pick<ManagerState, 'manager' | 'operation' | 'apiVersion' | 'subresource'>,
): string {
  const version = state.operation === 'Apply' ? '' : state.apiVersion;
  return JSON.stringify([state.manager, state.operation, version, state.subresource ?? '']);
}

/** Decodes managedFields; `strict` throws on malformed entries (apply), otherwise they are dropped (update). */
export function decodeManagedFields(entries: unknown, strict: boolean): Managers {
  const managers: Managers = new Map();
  if (entries === undefined || entries === null) return managers;
  if (!Array.isArray(entries)) {
    if (strict)
      throw new Error(`failed to decode managed fields: expected a list, got ${JSON.stringify(entries)}`);
    return managers;
  }
  entries.forEach((entry, i) => {
    try {
      const state = decodeEntry(entry, i);
      const id = managerId(state);
      const previous = managers.get(id);
      managers.set(id, previous ? { ...state, set: previous.set.union(state.set) } : state);
    } catch (err) {
      if (strict)
        throw new Error(`failed to decode managed fields: ${(err as Error).message}`, { cause: err });
    }
  });
  return managers;
}

function decodeEntry(entry: unknown, index: number): ManagerState {
  const where = `managedFields[${index}]`;
  if (!isJsonObject(entry)) throw new Error(`${where}: expected an object`);
  if (entry.operation !== 'Apply' && entry.operation !== 'Update') {
    throw new Error(`${where}: operation must be Apply or Update, got ${JSON.stringify(entry.operation)}`);
  }
  if (entry.fieldsType !== undefined && entry.fieldsType !== 'FieldsV1') {
    throw new Error(`${where}: unsupported fieldsType ${JSON.stringify(entry.fieldsType)}`);
  }
  return {
    manager: String(entry.manager ?? ''),
    operation: entry.operation,
    apiVersion: String(entry.apiVersion ?? ''),
    ...(typeof entry.time === 'string' ? { time: entry.time } : {}),
    ...(typeof entry.subresource === 'string' && entry.subresource ? { subresource: entry.subresource } : {}),
    set: FieldSet.fromFieldsV1(entry.fieldsV1 ?? {}, `${where}.fieldsV1`),
  };
}

const seconds = (time: string | undefined) => (time ? Math.floor(Date.parse(time) / 1000) : 0);
const order = (a: string | undefined, b: string | undefined) =>
  (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;

/** Encodes the non-empty sets, sorted as kube sorts them: operation, time, manager, apiVersion, subresource. */
export function encodeManagedFields(managers: Managers): ManagedFieldsEntry[] {
  return [...managers.values()]
    .filter((state) => !state.set.isEmpty())
    .sort(
      (a, b) =>
        order(a.operation, b.operation) ||
        seconds(a.time) - seconds(b.time) ||
        order(a.manager, b.manager) ||
        order(a.apiVersion, b.apiVersion) ||
        order(a.subresource, b.subresource),
    )
    .map((state) => ({
      manager: state.manager,
      operation: state.operation,
      apiVersion: state.apiVersion,
      ...(state.time ? { time: state.time } : {}),
      fieldsType: 'FieldsV1' as const,
      fieldsV1: state.set.toFieldsV1(),
      ...(state.subresource ? { subresource: state.subresource } : {}),
    }));
}

/** kube's printManager: `"kubectl"`, `"kube-controller-manager" with subresource "status" using apps/v1`. */
export function describeManager(state: ManagerState): string {
  let out = JSON.stringify(state.manager);
  if (state.subresource) out += ` with subresource ${JSON.stringify(state.subresource)}`;
  if (state.operation === 'Update') out += ` using ${state.apiVersion}`;
  return out;
}
