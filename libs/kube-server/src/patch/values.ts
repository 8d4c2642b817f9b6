/** Small helpers over JSON values, shared by every patch kind. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && deepEqual(a[key], b[key]));
  }
  return false;
}

/** A deep copy of a JSON value (the inputs of every patch function stay untouched). */
export function cloneJson<T>(value: T): T {
  return value === undefined ? value : structuredClone(value);
}

/** Go's `%v` rendering of a decoded JSON value, used where kube's messages print maps. */
export function goFormat(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`;
  if (isObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${key}:${goFormat(value[key])}`);
    return `map[${entries.join(' ')}]`;
  }
  if (value === null || value === undefined) return '<nil>';
  return String(value);
}
