/**
 * managedFields after a create, update or non-apply patch (kube's FieldManager.Update):
 * the fields the write added or changed move to the writing manager (operation Update),
 * fields it removed leave every manager's set.
 */
import { apiVersionOf, type GroupVersionKind, isJsonObject, type JsonObject } from '#kube-core';
import { FieldSet } from '../fieldpath/set.js';
import { schemaFor } from '../schema/lookup.js';
import type { RuleTable } from '../schema/rules.js';
import { stripMeta, withoutResetFields } from './fields.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  managerId,
  type ManagedFieldsEntry,
  type Managers,
} from './managers.js';
import { takeOwnership } from './ownership.js';
import { capUpdateManagers, withoutManagedFields } from './shared.js';
import { compareObjects } from './typed.js';

export interface UpdateManagedFieldsArgs {
  before: object | undefined;
  after: object;
  manager: string;
  operation: 'Update';
  gvk: GroupVersionKind;
  now: string;
  subresource?: string;
  /** A custom resource's list and map rules, from its CRD (patch/schema/openapi-rules.ts). */
  rules?: RuleTable;
}

const CURRENT_OPERATION = '\u0000current-operation';

export function updateManagedFields(args: UpdateManagedFieldsArgs): ManagedFieldsEntry[] {
  const { gvk, manager, subresource } = args;
  const schema = schemaFor(gvk, args.rules);
  const apiVersion = apiVersionOf(gvk);
  const after = withoutManagedFields(args.after);
  const base = {
    ...goStructs(after, schema.builtIn),
    ...(args.before ? withoutManagedFields(args.before) : {}),
  };
  const starting = startingManagers(args);
  // kube's skipNonApplied: an existing object nobody manages stays unmanaged until its first apply.
  if (args.before && !starting.size) return [];
  const comparison = compareObjects(base, after, schema);

  const { managers } = takeOwnership(starting, CURRENT_OPERATION, comparison);
  const written = stripMeta(withoutResetFields(comparison.modified.union(comparison.added), subresource));
  if (!written.isEmpty()) {
    const id = managerId({ manager, operation: 'Update', apiVersion, subresource });
    const previous = managers.get(id)?.set ?? new FieldSet();
    managers.set(id, {
      manager,
      operation: 'Update',
      apiVersion,
      time: args.now,
      ...(subresource ? { subresource } : {}),
      set: previous.union(written),
    });
  }
  const stripped: Managers = new Map(
    [...managers].map(([id, state]) => [id, { ...state, set: stripMeta(state.set) }]),
  );
  return encodeManagedFields(capUpdateManagers(stripped));
}

/**
 * kube's decodeLiveOrNew: managedFields sent with the write win (clients may edit them;
 * `[]` resets them), except through a subresource; otherwise the live object's.
 */
function startingManagers(args: UpdateManagedFieldsArgs): Managers {
  const sent = managedFieldsOf(args.after);
  const live = () => decodeManagedFields(managedFieldsOf(args.before), false);
  if (args.subresource) return live();
  if (
    Array.isArray(sent) &&
    (sent.length === 0 || (sent.length === 1 && isJsonObject(sent[0]) && !Object.keys(sent[0]).length))
  ) {
    return new Map();
  }
  const fromRequest = decodeManagedFields(sent, false);
  return fromRequest.size ? fromRequest : live();
}

function managedFieldsOf(obj: object | undefined): unknown {
  const metadata = (obj as JsonObject | undefined)?.metadata;
  return isJsonObject(metadata) ? metadata.managedFields : undefined;
}

const GO_STRUCT_FIELDS = ['metadata', 'spec', 'status'];

/**
 * Built-in kinds are Go structs whose top-level structs (metadata, spec, status) always
 * exist, so a write never "adds" them; custom resources are unstructured and start empty.
 */
function goStructs(after: JsonObject, builtIn: boolean): JsonObject {
  if (!builtIn) return {};
  return Object.fromEntries(
    GO_STRUCT_FIELDS.filter((key) => isJsonObject(after[key])).map((key) => [key, {}]),
  );
}
