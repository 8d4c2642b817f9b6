/** Go's rendering of JSON values for kube's patch messages (JSON helpers live in '#kube-core'). */
import { isJsonObject } from '#kube-core';

/** Go's `%v` rendering of a decoded JSON value, used where kube's messages print maps. */
export function goFormat(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${key}:${goFormat(value[key])}`);
    return `map[${entries.join(' ')}]`;
  }
  if (value === null || value === undefined) return '<nil>';
  return String(value);
}
