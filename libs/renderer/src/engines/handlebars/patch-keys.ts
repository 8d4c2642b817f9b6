import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { PatchKeys } from '../engine.js';
import { addPatchMarker } from '../../patch/index.js';

const MARKER = /^\+patch(Key|Strategy)=(\S+)/;

/**
 * The `# +patchKey=<field>` (and `# +patchStrategy=<strategy>`) comments on
 * the lines before a key inside the rendered `patch`, keyed by that key's path:
 * map keys joined by ".", "[]" for every item of a list
 * (`spec.template.spec.containers[].env`). `rootComments`, the comment lines
 * before the top-level `patch:` key, give the markers of `patch` itself (path
 * "": `+patchStrategy=jsonMergePatch` or `jsonPatch`). The same markers as
 * KubeVela's `// +patchKey=` in CUE, with the same meaning; several on one
 * path are all kept (see addPatchMarker).
 */
export function patchKeysOf(patch: unknown, rootComments: readonly string[] = []): PatchKeys {
  const keys: PatchKeys = {};
  addMarkers(keys, '', rootComments);
  walk(patch, '', true, keys);
  return keys;
}

/** Records the markers among comment `lines` (a leading `#` is allowed) for `path`. */
function addMarkers(keys: PatchKeys, path: string, lines: readonly string[]): void {
  for (const line of lines) {
    const marker = MARKER.exec(line.trim().replace(/^#\s*/, ''));
    if (marker) addPatchMarker(keys, path, marker[1] === 'Key' ? 'Key' : 'Strategy', marker[2]);
  }
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
    addMarkers(keys, keyPath, comments.filter(Boolean).join('\n').split('\n'));
    walk(pair.value, keyPath, true, keys);
  });
}
