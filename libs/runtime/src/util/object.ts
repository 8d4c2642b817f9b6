/** The part of a Kubernetes object the runtime relies on; everything else is opaque. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  deletionTimestamp?: string;
  creationTimestamp?: string;
  managedFields?: unknown[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [key: string]: unknown;
}

/** `namespace/name` for namespaced objects, `name` otherwise (client-go MetaNamespaceKeyFunc). */
export function objectKey(obj: KubeObject): string {
  const name = obj.metadata?.name;
  if (!name)
    throw new Error(`object of kind ${obj.kind ?? '?'} has no metadata.name: cannot compute its cache key`);
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${name}` : name;
}

export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

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
