import { type TypedObject } from '#kube-core';
import { applyPatch } from '../../../libs/renderer/src/patch/index.js';
import type { PatchKeys } from '../../../libs/renderer/src/index.js';

/** The workload after a trait's patch, applied as the renderer applies it. */
export function patched(
  workload: TypedObject,
  patch: Record<string, unknown>,
  patchKeys: PatchKeys,
  trait = 'trait',
): TypedObject {
  return applyPatch(workload, patch, patchKeys, {
    where: { subject: `traits[0] (${trait})` },
  }) as TypedObject;
}
