/**
 * Whether two values serialize to the same JSON up to key order: what comparing their
 * stableStringify texts tells, without building the texts. Object keys whose value is undefined
 * are absent (JSON.stringify leaves them out); elsewhere undefined reads as null; list order
 * counts. Shared subtrees (a write built from the stored object) compare at once.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  const list = Array.isArray(a);
  if (list !== Array.isArray(b)) return false;
  if (list) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let keys = 0;
  for (const key in x) {
    const value = x[key];
    if (value === undefined) continue;
    keys++;
    const other = y[key];
    if (other === undefined || !Object.hasOwn(y, key) || !jsonEqual(value, other)) return false;
  }
  for (const key in y) if (y[key] !== undefined) keys--;
  return keys === 0;
}
