/** A revision as the cap sees it. */
export interface RevisionEntry {
  name: string;
  revision: number;
}

/**
 * Which revisions to delete so at most `limit` remain (the live one counted):
 * the oldest first, never one in `keep` (the live revision). With `limit`
 * below 1, one is still kept.
 */
export function revisionsToDelete(
  revisions: readonly RevisionEntry[],
  limit: number,
  keep: ReadonlySet<string>,
): string[] {
  let excess = revisions.length - Math.max(1, limit);
  const out: string[] = [];
  for (const r of [...revisions].sort((a, b) => a.revision - b.revision)) {
    if (excess <= 0) break;
    if (keep.has(r.name)) continue;
    out.push(r.name);
    excess--;
  }
  return out;
}
