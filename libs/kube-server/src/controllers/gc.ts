import type { Core } from '../core.js';
import { FOREGROUND, type DependentsView, type PropagationPolicy } from '../objects/deleter.js';
import type { ChangeEvent, KubeObj } from '../store/types.js';

export interface ObjectRef {
  resource: string;
  namespace: string;
  name: string;
}

/** The writes the collector performs, with the server's own semantics. */
export interface GcActions {
  delete(ref: ObjectRef, policy: PropagationPolicy): void;
  /** Replaces the object's metadata (ownerReferences/finalizers) through the update path. */
  updateMeta(ref: ObjectRef, mutate: (obj: KubeObj) => void): void;
}

/** Removes one owner's reference (and the field itself when it becomes empty, as kube's GC patch does). */
function dropOwner(obj: KubeObj, ownerUid: string): void {
  const rest = (obj.metadata.ownerReferences ?? []).filter((o) => o.uid !== ownerUid);
  if (rest.length) obj.metadata.ownerReferences = rest;
  else delete obj.metadata.ownerReferences;
}

const refKey = (r: ObjectRef) => `${r.resource}|${r.namespace}|${r.name}`;
const parseRef = (key: string): ObjectRef => {
  const [resource, namespace, name] = key.split('|');
  return { resource, namespace, name };
};

/**
 * Garbage collection by ownerReferences, as kube-controller-manager does it:
 * dependents of a removed owner are deleted (or lose the reference when other
 * owners remain), foreground deletion waits for blocking dependents, orphaning
 * strips references. Work is queued so writes never nest inside a store event.
 */
export class GarbageCollector implements DependentsView {
  private readonly byUid = new Map<string, ObjectRef>();
  private readonly dependents = new Map<string, Set<string>>();
  private readonly queue: Array<() => void> = [];
  private scheduled = false;
  private actions?: GcActions;

  constructor(private readonly core: Core) {}

  start(actions: GcActions): void {
    this.actions = actions;
    for (const resource of this.core.store.resourceKeys()) {
      for (const e of this.core.store.list(resource))
        this.index({ resource, namespace: e.namespace, name: e.name }, e.object);
    }
    this.core.store.subscribe((event) => this.onChange(event));
    // Catch up with work a crash may have interrupted: dangling dependents and unfinished foreground deletions.
    for (const [ownerUid, deps] of this.dependents) {
      if (!this.byUid.has(ownerUid))
        for (const dep of deps) this.enqueue(() => this.ownerGone(parseRef(dep), ownerUid));
    }
    for (const ref of this.byUid.values()) this.enqueue(() => this.progressForeground(ref));
  }

  hasDependents(uid: string): boolean {
    return (this.dependents.get(uid)?.size ?? 0) > 0;
  }

  orphanDependents(uid: string): void {
    for (const dep of [...(this.dependents.get(uid) ?? [])]) {
      this.actions?.updateMeta(parseRef(dep), (obj) => dropOwner(obj, uid));
    }
  }

  /** Resolves once queued work is done (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.queue.length || this.scheduled) await new Promise((r) => setImmediate(r));
  }

  private onChange(event: ChangeEvent): void {
    const ref = { resource: event.resource, namespace: event.namespace, name: event.name };
    if (event.prev) this.unindex(ref, event.prev);
    if (event.type !== 'DELETED') this.index(ref, event.object);
    const uid = event.object.metadata.uid as string;
    if (event.type === 'DELETED') {
      for (const dep of [...(this.dependents.get(uid) ?? [])])
        this.enqueue(() => this.ownerGone(parseRef(dep), uid));
      for (const owner of event.object.metadata.ownerReferences ?? []) {
        const ownerRef = this.byUid.get(owner.uid);
        if (ownerRef) this.enqueue(() => this.progressForeground(ownerRef));
      }
      return;
    }
    if (event.object.metadata.deletionTimestamp && event.object.metadata.finalizers?.includes(FOREGROUND)) {
      this.enqueue(() => this.progressForeground(ref));
    }
    for (const owner of event.object.metadata.ownerReferences ?? []) {
      if (!this.byUid.has(owner.uid)) this.enqueue(() => this.ownerGone(ref, owner.uid));
    }
  }

  /** A dependent whose owner is gone: deleted when no other owner exists, else it just loses the reference. */
  private ownerGone(dep: ObjectRef, ownerUid: string): void {
    const obj = this.core.store.get(dep.resource, dep.namespace, dep.name)?.object;
    if (!obj || this.byUid.has(ownerUid)) return;
    const others = (obj.metadata.ownerReferences ?? []).filter(
      (o) => o.uid !== ownerUid && this.byUid.has(o.uid),
    );
    if (others.length) {
      this.actions?.updateMeta(dep, (o) => dropOwner(o, ownerUid));
    } else if (!obj.metadata.deletionTimestamp) {
      this.actions?.delete(dep, 'Background');
    }
  }

  /** Foreground: delete dependents; once no blocking dependent remains, drop the owner's foregroundDeletion finalizer. */
  private progressForeground(owner: ObjectRef): void {
    const obj = this.core.store.get(owner.resource, owner.namespace, owner.name)?.object;
    if (!obj?.metadata.deletionTimestamp || !obj.metadata.finalizers?.includes(FOREGROUND)) return;
    const uid = obj.metadata.uid as string;
    let blocking = 0;
    for (const depKey of [...(this.dependents.get(uid) ?? [])]) {
      const ref = parseRef(depKey);
      const dep = this.core.store.get(ref.resource, ref.namespace, ref.name)?.object;
      if (!dep) continue;
      if (dep.metadata.ownerReferences?.some((o) => o.uid === uid && o.blockOwnerDeletion)) blocking++;
      if (!dep.metadata.deletionTimestamp) this.actions?.delete(ref, 'Foreground');
    }
    if (blocking === 0) {
      this.actions?.updateMeta(owner, (o) => {
        o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== FOREGROUND);
      });
    }
  }

  private index(ref: ObjectRef, obj: KubeObj): void {
    if (obj.metadata.uid) this.byUid.set(obj.metadata.uid, ref);
    for (const owner of obj.metadata.ownerReferences ?? []) {
      let set = this.dependents.get(owner.uid);
      if (!set) this.dependents.set(owner.uid, (set = new Set()));
      set.add(refKey(ref));
    }
  }

  private unindex(ref: ObjectRef, obj: KubeObj): void {
    if (obj.metadata.uid) this.byUid.delete(obj.metadata.uid);
    for (const owner of obj.metadata.ownerReferences ?? []) {
      const set = this.dependents.get(owner.uid);
      set?.delete(refKey(ref));
      if (set && !set.size) this.dependents.delete(owner.uid);
    }
  }

  private enqueue(task: () => void): void {
    this.queue.push(task);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    while (this.queue.length) {
      const task = this.queue.shift() as () => void;
      try {
        task();
      } catch (err) {
        this.core.log({ level: 'error', msg: 'garbage collector step failed', error: String(err) });
      }
    }
    this.scheduled = false;
  }
}
