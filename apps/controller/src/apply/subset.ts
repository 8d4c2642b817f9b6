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

/** The path of the first field of `want` that `have` does not hold (as isSubset judges); undefined when it holds all. */
export function firstDifference(want: unknown, have: unknown, path: string[] = []): string[] | undefined {
  if (want === have) return undefined;
  if (Array.isArray(want)) {
    if (!Array.isArray(have) || have.length < want.length) return path;
    for (let i = 0; i < want.length; i++) {
      const d = firstDifference(want[i], have[i], [...path, String(i)]);
      if (d) return d;
    }
    return undefined;
  }
  if (want && typeof want === 'object') {
    if (!have || typeof have !== 'object' || Array.isArray(have)) return path;
    const h = have as Record<string, unknown>;
    for (const [k, v] of Object.entries(want as Record<string, unknown>)) {
      const d = firstDifference(v, h[k], [...path, k]);
      if (d) return d;
    }
    return undefined;
  }
  return path;
}
