/**
 * Element order of merged lists, as strategicpatch's normalizeElementOrder: the items the
 * patch names come in patch order, the items only the server has keep server order, and
 * the two are interleaved by the server order (a new item goes before the server items
 * that follow it) — which is why `kubectl patch` adding a container lists it first.
 */
import { deepEqual, isJsonObject } from '#kube-core';

function identity(item: unknown, mergeKey: string | undefined): unknown {
  return mergeKey && isJsonObject(item) ? item[mergeKey] : item;
}

export function indexIn(list: readonly unknown[], item: unknown, mergeKey: string | undefined): number {
  const id = identity(item, mergeKey);
  return list.findIndex((candidate) => deepEqual(identity(candidate, mergeKey), id));
}

function sortBy(items: unknown[], order: readonly unknown[], mergeKey: string | undefined): unknown[] {
  return items
    .map((item, position) => ({ item, position, rank: indexIn(order, item, mergeKey) }))
    .sort((a, b) => (a.rank >= 0 && b.rank >= 0 ? a.rank - b.rank : a.position - b.position))
    .map((entry) => entry.item);
}

/** mergeSortedSlice: interleave two sorted, non-overlapping lists using the server order. */
function interleave(
  serverOnly: unknown[],
  patched: unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string | undefined,
): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patched.length) {
    if (i >= serverOnly.length) out.push(patched[j++]);
    else if (j >= patched.length) out.push(serverOnly[i++]);
    else {
      const left = indexIn(serverOrder, serverOnly[i], mergeKey);
      const right = indexIn(serverOrder, patched[j], mergeKey);
      if (left >= 0 && right >= 0 && left < right) out.push(serverOnly[i++]);
      else out.push(patched[j++]);
    }
  }
  return out;
}

/**
 * Orders `merged`: items present in `patchOrder` (the patch list, or `$setElementOrder`)
 * by that order, the rest by `serverOrder`, interleaved.
 */
export function normalizeOrder(
  merged: unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string | undefined,
): unknown[] {
  const patched = merged.filter((item) => indexIn(patchOrder, item, mergeKey) >= 0);
  const serverOnly = merged.filter((item) => indexIn(patchOrder, item, mergeKey) < 0);
  return interleave(
    sortBy(serverOnly, serverOrder, mergeKey),
    sortBy(patched, patchOrder, mergeKey),
    serverOrder,
    mergeKey,
  );
}
