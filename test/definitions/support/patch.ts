import type { KubeObject } from '#api';
// The renderer's own marker reader and merge, so these tests see the patch keys exactly as
// the engine will (both are internal to #renderer, hence the relative imports).
import { fieldDeclarations, joinPath } from '../../../libs/renderer/src/engines/cue/cue-fields.js';
import { applyPatch, PATCH_STRATEGY } from '../../../libs/renderer/src/patch/index.js';

/** `// +patchKey=` and `// +patchStrategy=` markers under `patch`, by path inside the patch. */
export function patchKeysOf(template: string): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const decl of fieldDeclarations(template)) {
    if (decl.path[0] !== 'patch' || decl.path.length < 2) continue;
    const path = joinPath(decl.path.slice(1));
    for (const comment of decl.comments) {
      const key = /^\+patchKey=(\S+)/.exec(comment);
      if (key) keys[path] = key[1];
      const strategy = /^\+patchStrategy=(\S+)/.exec(comment);
      if (strategy) {
        const marker = PATCH_STRATEGY[strategy[1] as keyof typeof PATCH_STRATEGY];
        if (!marker) throw new Error(`${path}: unknown +patchStrategy=${strategy[1]}`);
        keys[path] = marker;
      }
    }
  }
  return keys;
}

/** The workload after a trait's patch, merged as the renderer merges it. */
export function patched(workload: KubeObject, patch: Record<string, unknown>, template: string): KubeObject {
  return applyPatch(workload, patch, patchKeysOf(template)) as KubeObject;
}
