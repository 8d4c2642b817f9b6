import type { StoredObject } from '#kube-core';
import { addTo, labelKey, removeFrom } from './set-index.js';
import type { ObjectRef } from './types.js';

/** An object's key within its resource: what the store's tables and these indexes hold. */
export const objectKey = (namespace: string, name: string) => `${namespace}/${name}`;
/** An object's key across resources. */
export const refKey = (r: ObjectRef) => `${r.resource}|${r.namespace}|${r.name}`;
const parseRef = (key: string): ObjectRef => {
  const [resource, namespace, name] = key.split('|');
  return { resource, namespace, name };
};

/**
 * The store's secondary indexes, kept in step with every put and remove:
 * by uid, by the owners objects reference, the objects no controller owns,
 * and by label. Ownership questions (the garbage collector's, deletion's, a
 * controller's claim) and selector lists are answered from them instead of
 * by scanning a resource.
 */
export class ObjectIndex {
  /** uid → where the object is. */
  private readonly uids = new Map<string, ObjectRef>();
  /** owner uid → the objects that name it in their ownerReferences (refKey). */
  private readonly dependents = new Map<string, Set<string>>();
  /** resource → the objects with no controller reference (objectKey): what a controller may adopt. */
  private readonly uncontrolled = new Map<string, Set<string>>();
  /** resource → "namespace\0key\0value" → the objects with that label (objectKey). */
  private readonly labelled = new Map<string, Map<string, Set<string>>>();

  add(ref: ObjectRef, obj: StoredObject): void {
    if (obj.metadata.uid) this.uids.set(obj.metadata.uid, ref);
    let controlled = false;
    for (const owner of obj.metadata.ownerReferences ?? []) {
      if (owner.controller) controlled = true;
      addTo(this.dependents, owner.uid, refKey(ref));
    }
    const key = objectKey(ref.namespace, ref.name);
    if (!controlled) addTo(this.uncontrolled, ref.resource, key);
    const labels = obj.metadata.labels;
    if (labels) {
      let byLabel = this.labelled.get(ref.resource);
      if (!byLabel) this.labelled.set(ref.resource, (byLabel = new Map()));
      for (const [k, v] of Object.entries(labels)) addTo(byLabel, labelKey(ref.namespace, k, v), key);
    }
  }

  remove(ref: ObjectRef, obj: StoredObject): void {
    if (obj.metadata.uid) this.uids.delete(obj.metadata.uid);
    for (const owner of obj.metadata.ownerReferences ?? [])
      removeFrom(this.dependents, owner.uid, refKey(ref));
    const key = objectKey(ref.namespace, ref.name);
    removeFrom(this.uncontrolled, ref.resource, key);
    const byLabel = this.labelled.get(ref.resource);
    if (byLabel)
      for (const [k, v] of Object.entries(obj.metadata.labels ?? {}))
        removeFrom(byLabel, labelKey(ref.namespace, k, v), key);
  }

  /** Moves an object's entries from what it was to what it is: nothing to do when both name the same uid, owners and labels. */
  update(ref: ObjectRef, prev: StoredObject, next: StoredObject): void {
    if (sameIndexed(prev, next)) return;
    this.remove(ref, prev);
    this.add(ref, next);
  }

  byUid(uid: string): ObjectRef | undefined {
    return this.uids.get(uid);
  }

  dependentsOf(uid: string): ObjectRef[] {
    return [...(this.dependents.get(uid) ?? [])].map(parseRef);
  }

  /** The keys of a resource's objects that name `uid` among their owners or have no controller. */
  claimable(resource: string, uid: string): Set<string> {
    const keys = new Set<string>();
    for (const key of this.dependents.get(uid) ?? []) {
      const ref = parseRef(key);
      if (ref.resource === resource) keys.add(objectKey(ref.namespace, ref.name));
    }
    for (const key of this.uncontrolled.get(resource) ?? []) keys.add(key);
    return keys;
  }

  /** The keys of a resource's objects labelled key=value, in a namespace ('' for all). */
  labelledWith(resource: string, namespace: string, key: string, value: string): Iterable<string> {
    const byLabel = this.labelled.get(resource);
    if (namespace) return byLabel?.get(labelKey(namespace, key, value)) ?? [];
    const keys = new Set<string>();
    for (const [k, set] of byLabel ?? [])
      if (k.endsWith(`\0${key}\0${value}`)) for (const o of set) keys.add(o);
    return keys;
  }
}

/** True when two versions of an object have the same index entries (most updates change neither owners nor labels). */
function sameIndexed(a: StoredObject, b: StoredObject): boolean {
  const ma = a.metadata;
  const mb = b.metadata;
  if (ma.uid !== mb.uid) return false;
  const oa = ma.ownerReferences ?? [];
  const ob = mb.ownerReferences ?? [];
  if (oa.length !== ob.length) return false;
  for (let i = 0; i < oa.length; i++)
    if (oa[i].uid !== ob[i].uid || !oa[i].controller !== !ob[i].controller) return false;
  const la = ma.labels ?? {};
  const lb = mb.labels ?? {};
  if (la === lb) return true;
  const keys = Object.keys(la);
  if (keys.length !== Object.keys(lb).length) return false;
  for (const k of keys) if (!Object.hasOwn(lb, k) || la[k] !== lb[k]) return false;
  return true;
}
