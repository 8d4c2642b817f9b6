import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { PatchKeys } from '../engine.js';
import { PATCH_STRATEGY } from '../../patch/index.js';

const MARKER = /^\+patch(Key|Strategy)=(\S+)/;

/**
 * The `# +patchKey=<field>` (and `# +patchStrategy=retainKeys|replace`)
 * comments on the lines before a key inside the rendered `patch`, keyed by
 * that key's path: map keys joined by ".", "[]" for every item of a list
 * (`spec.template.spec.containers[].env`). The same markers as KubeVela's
 * `// +patchKey=` in CUE, with the same meaning.
 */
export function patchKeysOf(patch: unknown): PatchKeys {
  const keys: PatchKeys = {};
  walk(patch, '', true, keys);
  return keys;
}

function walk(node: unknown, path: string, valueOfKey: boolean, keys: PatchKeys): void {
  if (isSeq(node)) {
    for (const item of node.items) walk(item, `${path}[]`, false, keys);
    return;
  }
  if (!isMap(node)) return;
  node.items.forEach((pair, i) => {
    if (!isScalar(pair.key)) return;
    const key = String(pair.key.value);
    const keyPath = path ? `${path}.${key}` : key;
    // The yaml parser hangs a comment before a map's first key on the map itself; that map
    // must be a key's value though: before a list's first item it annotates the item, not a key.
    const comments = [
      i === 0 && valueOfKey ? node.commentBefore : undefined,
      (pair.key as YamlNode).commentBefore,
    ];
    for (const line of comments.filter(Boolean).join('\n').split('\n')) {
      const marker = MARKER.exec(line.trim());
      if (!marker) continue;
      if (marker[1] === 'Key') keys[keyPath] = marker[2];
      else if (marker[2] === 'retainKeys') keys[keyPath] = PATCH_STRATEGY.retainKeys;
      else if (marker[2] === 'replace') keys[keyPath] = PATCH_STRATEGY.replace;
    }
    walk(pair.value, keyPath, true, keys);
  });
}
