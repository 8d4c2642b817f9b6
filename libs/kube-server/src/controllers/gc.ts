import type { EventHandler, Reconciler, Request } from '#runtime';
import type { Core } from '../core.js';
import { FOREGROUND, type DependentsView, type PropagationPolicy } from '../objects/deleter.js';
import type { ObjectRef } from '../store/types.js';
import { type StoredObject } from '#kube-core';

export type { ObjectRef } from '../store/types.js';

/** The writes the collector performs, with the server's own semantics. */
export interface GcActions {
  delete(ref: ObjectRef, policy: PropagationPolicy): void;
  /** Replaces the object's metadata (ownerReferences/finalizers) through the update path. */
  updateMeta(ref: ObjectRef, mutate: (obj: StoredObject) => void): void;
}

/** Removes one owner's reference (and the field itself when it becomes empty, as kube's GC patch does). */
function dropOwner(obj: StoredObject, ownerUid: string): void {
  const rest = (obj.metadata.ownerReferences ?? []).filter((o) => o.uid !== ownerUid);
  if (rest.length) obj.metadata.ownerReferences = rest;
  else delete obj.metadata.ownerReferences;
}

/** A request names an object by uid (any resource): `{ namespace: '', name: uid }`. */
const byUid = (uid: string): Request => ({ namespace: '', name: uid });

/**
 * Garbage collection by ownerReferences, as kube-controller-manager does it:
 * dependents of a removed owner are deleted (or lose the reference when other
 * owners remain), foreground deletion waits for blocking dependents, orphaning
 * strips references.
 *
 * A reconcile is level-triggered, per object (by uid): it reads the object and
 * its owners from the store (the store indexes uids and owner references), so
 * a decision never rests on an informer that has not caught up yet. Events only
 * say which objects to look at: an object with owner references or waiting for
 * foreground deletion; the dependents and owners of a deleted object. The
 * informers' first list is the catch-up after a crash.
 */
export class GarbageCollector implements Reconciler, DependentsView {
  constructor(
    private readonly core: Core,
    private readonly actions: GcActions,
  ) {}

  /** Maps one resource's informer events to requests. */
  handler(enqueue: (request: Request) => void): EventHandler<StoredObject> {
    const changed = (obj: StoredObject) => {
      const meta = obj.metadata;
      const foreground = meta.deletionTimestamp && meta.finalizers?.includes(FOREGROUND);
      if (meta.uid && (meta.ownerReferences?.length || foreground)) enqueue(byUid(meta.uid));
    };
    return {
      onAdd: changed,
      onUpdate: (_old, obj) => changed(obj),
      onDelete: (obj) => {
        const uid = obj.metadata.uid;
        if (!uid) return;
        for (const dep of this.core.store.dependentsOf(uid)) {
          const depUid = this.core.store.get(dep.resource, dep.namespace, dep.name)?.object.metadata.uid;
          if (depUid) enqueue(byUid(depUid));
        }
        for (const owner of obj.metadata.ownerReferences ?? []) enqueue(byUid(owner.uid));
      },
    };
  }

  async reconcile(request: Request): Promise<void> {
    const ref = this.core.store.byUid(request.name);
    if (!ref) return;
    this.ownersGone(ref);
    this.progressForeground(ref);
  }

  hasDependents(uid: string): boolean {
    return this.core.store.dependentsOf(uid).length > 0;
  }

  orphanDependents(uid: string): void {
    for (const dep of this.core.store.dependentsOf(uid)) {
      this.actions.updateMeta(dep, (obj) => dropOwner(obj, uid));
    }
  }

  private exists = (uid: string) => this.core.store.byUid(uid) !== undefined;

  /** A dependent whose owners are gone: deleted when no other owner exists, else it just loses the references. */
  private ownersGone(dep: ObjectRef): void {
    const obj = this.core.store.get(dep.resource, dep.namespace, dep.name)?.object;
    const owners = obj?.metadata.ownerReferences ?? [];
    const gone = owners.filter((o) => !this.exists(o.uid));
    if (!obj || !gone.length) return;
    if (owners.length > gone.length) {
      this.actions.updateMeta(dep, (o) => {
        for (const owner of gone) dropOwner(o, owner.uid);
      });
    } else if (!obj.metadata.deletionTimestamp) {
      this.actions.delete(dep, 'Background');
    }
  }

  /** Foreground: delete dependents; once no blocking dependent remains, drop the owner's foregroundDeletion finalizer. */
  private progressForeground(owner: ObjectRef): void {
    const obj = this.core.store.get(owner.resource, owner.namespace, owner.name)?.object;
    if (!obj?.metadata.deletionTimestamp || !obj.metadata.finalizers?.includes(FOREGROUND)) return;
    const uid = obj.metadata.uid as string;
    let blocking = 0;
    for (const ref of this.core.store.dependentsOf(uid)) {
      const dep = this.core.store.get(ref.resource, ref.namespace, ref.name)?.object;
      if (!dep) continue;
      if (dep.metadata.ownerReferences?.some((o) => o.uid === uid && o.blockOwnerDeletion)) blocking++;
      if (!dep.metadata.deletionTimestamp) this.actions.delete(ref, 'Foreground');
    }
    if (blocking === 0) {
      this.actions.updateMeta(owner, (o) => {
        o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND);
      });
    }
  }
}
