/**
 * Server-side apply (structured-merge-diff's Updater.Apply behind kube's FieldManager):
 * merge the applied configuration into the live object, remove the fields this manager
 * applied last time and no longer applies (unless someone else owns them), then take
 * ownership: a changed field owned by another manager is a conflict unless forced.
 */
import {
  apiVersionOf,
  type GroupVersionKind,
  isJsonObject,
  type JsonObject,
  parseApiVersion,
} from '#kube-core';
import { ApiError } from '../../errors.js';
import type { FieldSet } from '../fieldpath/set.js';
import { gvkString, schemaFor, type TypeSchema } from '../schema/lookup.js';
import type { RuleTable } from '../schema/rules.js';
import { badRequest, internalError } from '../status.js';
import { conflictError } from './conflicts.js';
import { stripMeta, withoutResetFields } from './fields.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  managerId,
  type Managers,
  type ManagerState,
} from './managers.js';
import { mergeApplied, removeItems } from './merge.js';
import { takeOwnership } from './ownership.js';
import { appliedFieldSet, compareObjects, TypedValueError } from './typed.js';
import { capUpdateManagers, withoutManagedFields } from './shared.js';
import { undeclaredFieldErrors, validationErrorsText } from './undeclared.js';
import { updateManagedFields } from './update.js';

export interface ServerSideApplyArgs {
  live: object | undefined;
  applied: object;
  manager: string;
  force: boolean;
  gvk: GroupVersionKind;
  now: string;
  subresource?: string;
  /**
   * The fields of the applied configuration its kind's schema does not declare (strict
   * decoding's paths): SMD cannot make a typed value of it, whatever fieldValidation says.
   */
  undeclared?: (applied: JsonObject) => string[];
  /** A custom resource's list and map rules, from its CRD (patch/schema/openapi-rules.ts). */
  rules?: RuleTable;
}

export function serverSideApply(args: ServerSideApplyArgs): object {
  const { gvk, manager, now, subresource } = args;
  validateFieldManager(manager);
  const applied = validateApplied(args.applied, gvk);
  const schema = schemaFor(gvk, args.rules);
  const live = isJsonObject(args.live) ? args.live : undefined;
  const managers = beforeFirstApply(decodeLiveManagers(live), live, args);
  const liveBody = live ? withoutManagedFields(live) : {};

  const applierId = managerId({ manager, operation: 'Apply', apiVersion: apiVersionOf(gvk), subresource });
  const previous = managers.get(applierId);
  const applier: ManagerState = {
    manager,
    operation: 'Apply',
    apiVersion: apiVersionOf(gvk),
    time: now,
    ...(subresource ? { subresource } : {}),
    set: withoutResetFields(typedAppliedSet(applied, schema, args.undeclared?.(applied) ?? []), subresource),
  };
  const withApplier: Managers = new Map(managers).set(applierId, applier);

  const merged = prune(mergeApplied(liveBody, applied, schema), withApplier, previous?.set, schema);
  const comparison = compareObjects(liveBody, merged, schema);
  const { managers: owners, conflicts } = takeOwnership(withApplier, applierId, comparison);
  if (conflicts.length && !args.force) throw conflictError(conflicts);

  const unchanged =
    comparison.added.isEmpty() && comparison.modified.isEmpty() && comparison.removed.isEmpty();
  // A no-op apply keeps the entry's time, as kube's managedFieldsUpdater does.
  if (unchanged && previous?.time) owners.set(applierId, { ...applier, time: previous.time });
  const stripped: Managers = new Map(
    [...owners].map(([id, state]) => [
      id,
      { ...state, set: sameOrNew(managers.get(id)?.set, stripMeta(state.set)) },
    ]),
  );
  const metadata = isJsonObject(merged.metadata) ? merged.metadata : {};
  return {
    ...merged,
    metadata: { ...metadata, managedFields: encodeManagedFields(capUpdateManagers(stripped)) },
  };
}

/** The live set when the new one holds the same paths (re-applying the same fields): its FieldsV1 is made already. */
function sameOrNew(live: FieldSet | undefined, next: FieldSet): FieldSet {
  return live?.equals(next) ? live : next;
}

/** Apply's own 422 for the fieldManager query parameter (kube's ValidatePatchOptions). */
function validateFieldManager(manager: string): void {
  const fail = (reason: string, message: string) =>
    new ApiError(422, 'Invalid', `PatchOptions.meta.k8s.io "" is invalid: fieldManager: ${message}`, {
      group: 'meta.k8s.io',
      kind: 'PatchOptions',
      causes: [{ reason, message, field: 'fieldManager' }],
    });
  if (!manager) throw fail('FieldValueRequired', 'Required value: is required for apply patch');
  if (manager.length > 128) throw fail('FieldValueTooLong', 'Too long: may not be more than 128 bytes');
}

function validateApplied(applied: unknown, gvk: GroupVersionKind): JsonObject {
  if (!isJsonObject(applied)) {
    const got = Array.isArray(applied) ? 'array' : applied === null ? 'null' : typeof applied;
    throw badRequest(
      `error decoding YAML: json: cannot unmarshal ${got} into Go value of type map[string]interface {}`,
    );
  }
  const appliedGvk = {
    ...parseApiVersion(typeof applied.apiVersion === 'string' ? applied.apiVersion : ''),
    kind: typeof applied.kind === 'string' ? applied.kind : '',
  };
  if (appliedGvk.group !== gvk.group || appliedGvk.version !== gvk.version || appliedGvk.kind !== gvk.kind) {
    throw badRequest(`invalid object type: ${gvkString(appliedGvk)}`);
  }
  const metadata = applied.metadata;
  if (isJsonObject(metadata) && metadata.managedFields !== undefined && metadata.managedFields !== null) {
    throw badRequest('metadata.managedFields must be nil');
  }
  return applied;
}

/**
 * kube's skipNonApplied: a live object nobody manages gets its fields owned by
 * `before-first-apply` (an Update from nothing to it) before its first apply.
 */
function beforeFirstApply(
  managers: Managers,
  live: JsonObject | undefined,
  { gvk, now, rules }: ServerSideApplyArgs,
): Managers {
  if (!live || managers.size) return managers;
  const entries = updateManagedFields({
    before: undefined,
    after: live,
    manager: 'before-first-apply',
    operation: 'Update',
    gvk,
    now,
    rules,
  });
  return decodeManagedFields(entries, true);
}

function decodeLiveManagers(live: JsonObject | undefined): Managers {
  try {
    return decodeManagedFields(isJsonObject(live?.metadata) ? live.metadata.managedFields : undefined, true);
  } catch (err) {
    throw internalError((err as Error).message);
  }
}

/** ObjectToTyped of the applied configuration: its field set, or the error SMD's validation gives. */
function typedAppliedSet(applied: JsonObject, schema: TypeSchema, undeclared: string[]): FieldSet {
  const meta = isJsonObject(applied.metadata) ? applied.metadata : {};
  const object = `${String(meta.namespace ?? '')}/${String(meta.name ?? '')}; ${gvkString(schema.gvk)}`;
  const fail = (text: string) => internalError(`failed to create typed patch object (${object}): ${text}`);
  if (undeclared.length) throw fail(validationErrorsText(undeclaredFieldErrors(applied, undeclared, schema)));
  try {
    return appliedFieldSet(applied, schema);
  } catch (err) {
    if (!(err instanceof TypedValueError)) throw err;
    throw fail(err.message);
  }
}

/**
 * Removes what the applier owned last time and no manager (the applier's new set included)
 * owns now; a field on the way to an owned field stays (EnsureNamedFieldsAreMembers).
 */
function prune(
  merged: JsonObject,
  managers: Managers,
  lastSet: FieldSet | undefined,
  schema: TypeSchema,
): JsonObject {
  if (!lastSet || lastSet.isEmpty()) return merged;
  let owned: FieldSet | undefined;
  for (const state of managers.values()) owned = owned ? owned.union(state.set) : state.set;
  const orphaned = owned
    ? lastSet.withFieldsAsMembers().difference(owned.withFieldsAsMembers())
    : lastSet.withFieldsAsMembers();
  return orphaned.isEmpty() ? merged : removeItems(merged, orphaned, schema);
}
