import { type TypedObject } from '#kube-core';
import { applyPatch } from '../../../libs/renderer/src/patch/index.js';
import type { PatchKeys } from '../../../libs/renderer/src/index.js';
import { compileTemplate } from './cue.js';

/** The `// +patchKey=` / `// +patchStrategy=` markers of a template's patch, as the engine reads them. */
export function patchKeysOf(template: string): PatchKeys {
  return compileTemplate(template).patchKeys;
}

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
