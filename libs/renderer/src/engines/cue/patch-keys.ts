import type { PatchKeys } from '../engine.js';
import { PATCH_STRATEGY } from '../../patch/index.js';
import { joinPath, type FieldDeclaration } from './cue-fields.js';

const MARKER = /^\+patch(Key|Strategy)=(\S+)/;

/**
 * KubeVela's `// +patchKey=<field>` and `// +patchStrategy=<strategy>`
 * comments, keyed by the path of the field they annotate inside `patch`
 * (`spec.template.spec.containers`, `spec.template.spec.containers[].env`).
 * Markers outside `patch` do not affect trait patches and are ignored.
 */
export function extractPatchKeys(declarations: readonly FieldDeclaration[]): PatchKeys {
  const keys: PatchKeys = {};
  for (const decl of declarations) {
    if (decl.path[0] !== 'patch' || decl.path.length < 2) continue;
    for (const comment of decl.comments) {
      const marker = MARKER.exec(comment.trim());
      if (!marker) continue;
      const path = joinPath(decl.path.slice(1));
      if (marker[1] === 'Key') keys[path] = marker[2];
      else if (marker[2] === 'retainKeys') keys[path] = PATCH_STRATEGY.retainKeys;
      else if (marker[2] === 'replace') keys[path] = PATCH_STRATEGY.replace;
    }
  }
  return keys;
}
