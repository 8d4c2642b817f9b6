/**
 * Whether two values have the same stable JSON (`stableStringify(a) ===
 * stableStringify(b)`) without writing either out: key order does not
 * matter, a key whose value is undefined counts as absent, and what JSON
 * cannot say (undefined in a list, NaN) reads as `null`. Stops at the first
 * difference.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const objectA = a !== null && typeof a === 'object';
  const objectB = b !== null && typeof b === 'object';
  if (!objectA || !objectB) return !objectA && !objectB && scalarJson(a) === scalarJson(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let defined = 0;
  for (const key in x) {
    if (!Object.hasOwn(x, key) || x[key] === undefined) continue;
    defined++;
    if (!Object.hasOwn(y, key) || !sameJson(x[key], y[key])) return false;
  }
  for (const key in y) if (Object.hasOwn(y, key) && y[key] !== undefined) defined--;
  return defined === 0;
}

const scalarJson = (v: unknown): string => JSON.stringify(v) ?? 'null';
