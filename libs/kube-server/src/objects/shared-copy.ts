/**
 * The copy of an in-process writer's body that the writer may change. Such a writer builds its
 * body from the stored object (frozen) and changes a few fields: the values it kept are the
 * stored object's own, and the copy shares them instead of copying them, so a write costs what
 * it changed. Writes leave frozen values as they are (defaulting skips them, dropping a field
 * copies them first). The top level and the metadata are always copied: the writer sets them.
 */
import { isJsonObject } from '#kube-core';

const isPlain = (value: object) => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/** A copy of `value` sharing the frozen values it took unchanged from `stored` (at the same place). */
export function share(value: unknown, stored: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (value === stored && Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    const list = Array.isArray(stored) ? stored : [];
    return value.map((item, i) => share(item, list[i]));
  }
  if (!isPlain(value)) return structuredClone(value);
  const from = isJsonObject(stored) ? stored : {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = share((value as Record<string, unknown>)[key], from[key]);
  return out;
}

/** A copy of `body` sharing the frozen values it took unchanged from `stored` (at the same place). */
export function copySharingStored(body: unknown, stored: object): unknown {
  if (!isJsonObject(body)) return body;
  const live = stored as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    const value = body[key];
    // A spread is never the stored value itself, so the metadata's top level is always new.
    out[key] = share(key === 'metadata' && isJsonObject(value) ? { ...value } : value, live[key]);
  }
  return out;
}
