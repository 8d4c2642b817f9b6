/**
 * True when every field of `want` has the same value in `have` (extra fields
 * in `have` are fine: defaults, status, other managers' fields). Lists
 * compare by position. This is how a drifted field that the controller
 * manages is noticed without a write.
 */
export function isSubset(want: unknown, have: unknown): boolean {
  if (want === have) return true;
  if (Array.isArray(want)) {
    if (!Array.isArray(have) || have.length < want.length) return false;
    return want.every((w, i) => isSubset(w, have[i]));
  }
  if (want && typeof want === 'object') {
    if (!have || typeof have !== 'object' || Array.isArray(have)) return false;
    const h = have as Record<string, unknown>;
    return Object.entries(want as Record<string, unknown>).every(([k, v]) => isSubset(v, h[k]));
  }
  return false;
}
