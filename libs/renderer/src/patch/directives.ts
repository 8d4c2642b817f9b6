import type { PatchKeys } from '../engines/engine.js';

/**
 * KubeVela's `// +patchStrategy=` markers travel in PatchKeys next to the
 * `// +patchKey=` field names, as values no Kubernetes field name can take.
 * One path may carry several markers (`+patchKey=name` and
 * `+patchStrategy=retainKeys` on the same list): they are stored as one
 * space-separated string, which is why `addPatchMarker` is the way to write them.
 */
export const PATCH_STRATEGY = {
  /** On a list: the patch's list replaces the target's list. */
  replace: '+replace',
  /**
   * On a field that is not a list: the patch's value replaces the target's
   * value (keys the patch does not name are dropped). On a keyed list: matched
   * items are replaced instead of merged.
   */
  retainKeys: '+retainKeys',
  /** On `patch` itself: apply the patch as an RFC 7396 JSON merge patch (`null` deletes). */
  jsonMergePatch: '+jsonMergePatch',
  /** On `patch` itself: `patch.operations` is an RFC 6902 JSON patch. */
  jsonPatch: '+jsonPatch',
  /**
   * On a list: the patch was written `[...X]`, a constraint on every item of
   * the target's list; the patch carries X as its only item.
   */
  each: '+each',
} as const;

const STRATEGY_BY_NAME: Record<string, string> = {
  replace: PATCH_STRATEGY.replace,
  retainKeys: PATCH_STRATEGY.retainKeys,
  jsonMergePatch: PATCH_STRATEGY.jsonMergePatch,
  jsonPatch: PATCH_STRATEGY.jsonPatch,
};

/** The markers that apply at one path of a patch. */
export interface PatchDirectives {
  /** `+patchKey=`: item field(s) to merge list items by (`name`, `secretRef.name,configMapRef.name`). */
  key?: string;
  replace: boolean;
  retainKeys: boolean;
  jsonMergePatch: boolean;
  jsonPatch: boolean;
  each: boolean;
}

/**
 * Records one marker comment (`+patchKey=<value>` or `+patchStrategy=<value>`)
 * for `path` (map keys joined by ".", "[]" for every item of a list, "" for
 * `patch` itself). Returns false for a strategy KubeVela does not have, which
 * is then ignored as KubeVela ignores it.
 */
export function addPatchMarker(
  keys: PatchKeys,
  path: string,
  kind: 'Key' | 'Strategy',
  value: string,
): boolean {
  const token = kind === 'Key' ? value : STRATEGY_BY_NAME[value];
  if (!token || /\s/.test(token)) return false;
  const tokens = (keys[path] ?? '').split(' ').filter(Boolean);
  // A later `+patchKey=` on the same field wins, as in KubeVela (one tag map per field).
  const kept = kind === 'Key' ? tokens.filter((t) => t.startsWith('+')) : tokens.filter((t) => t !== token);
  keys[path] = [...kept, token].join(' ');
  return true;
}

/** Marks the list at `path` as written `[...X]` (see PATCH_STRATEGY.each). */
export function markEachList(keys: PatchKeys, path: string): void {
  const tokens = (keys[path] ?? '').split(' ').filter((t) => t && t !== PATCH_STRATEGY.each);
  keys[path] = [...tokens, PATCH_STRATEGY.each].join(' ');
}

/** The markers recorded for `path`. */
export function directivesAt(keys: PatchKeys, path: string): PatchDirectives {
  const tokens = (keys[path] ?? '').split(' ').filter(Boolean);
  const has = (t: string) => tokens.includes(t);
  return {
    key: tokens.filter((t) => !t.startsWith('+')).pop(),
    replace: has(PATCH_STRATEGY.replace),
    retainKeys: has(PATCH_STRATEGY.retainKeys),
    jsonMergePatch: has(PATCH_STRATEGY.jsonMergePatch),
    jsonPatch: has(PATCH_STRATEGY.jsonPatch),
    each: has(PATCH_STRATEGY.each),
  };
}
