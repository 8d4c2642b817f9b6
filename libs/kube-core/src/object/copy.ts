import type { KubeObject } from './types.js';

/** Freezes an object and everything inside it, so a cached object cannot be changed by a caller. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/** A mutable deep copy (for callers who want to edit a cached object before writing it back). */
export function deepCopy<T>(value: T): T {
  return structuredClone(value);
}

/** Drops `metadata.managedFields`: the usual cache transform (they are often half of an object's bytes). */
export function dropManagedFields<T extends KubeObject>(obj: T): T {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}
