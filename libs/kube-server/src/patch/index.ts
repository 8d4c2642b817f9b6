/**
 * Patching for the embedded API server: JSON patch (RFC 6902), JSON merge patch
 * (RFC 7386), strategic merge patch for built-in kinds, and server-side apply with
 * managedFields. Every function is pure and throws ApiError with kube-apiserver's status.
 */
import { type GroupVersionKind } from '#kube-core';
import { applyJsonPatchRequest } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import type { PatchKind } from './content-type.js';
import { schemaFor } from './schema/lookup.js';
import { strategicMergePatch } from './strategic/merge.js';

export { patchKindFromContentType, type PatchKind } from './content-type.js';
export { serverSideApply, type ServerSideApplyArgs } from './ssa/apply.js';
export { updateManagedFields, type UpdateManagedFieldsArgs } from './ssa/update.js';
export type { ManagedFieldsEntry } from './ssa/managers.js';
export { rulesFromOpenApi } from './schema/openapi-rules.js';
export type { RuleTable } from './schema/rules.js';

/** Applies a JSON, merge or strategic merge patch to a copy of `live`. */
export function applyPatch(
  kind: Exclude<PatchKind, 'apply'>,
  live: object,
  patch: unknown,
  gvk: GroupVersionKind,
): object {
  switch (kind) {
    case 'json':
      return applyJsonPatchRequest(live, patch);
    case 'merge':
      return applyMergePatch(live, patch);
    case 'strategic':
      return strategicMergePatch(live, patch, schemaFor(gvk));
  }
}
