import type { EventHandler, Reconciler, Request } from '#runtime';
import type { Core } from '../core.js';
import type { GcActions } from './gc.js';
import { CRD_KEY } from '../resources/crds.js';
import { type StoredObject } from '#kube-core';

const NAMESPACES = '/namespaces';

/**
 * The namespace controller: a Terminating namespace has everything in it
 * deleted; when it is empty, its `kubernetes` finalizer goes and it is removed.
 * Requests name a namespace; they come from the namespace itself going
 * Terminating, and from anything inside a Terminating one going away.
 */
export class NamespaceController implements Reconciler {
  constructor(
    private readonly core: Core,
    private readonly actions: GcActions,
  ) {}

  /** Creates default, kube-system and kube-public when missing. */
  ensureSystemNamespaces(create: (name: string) => void): void {
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      if (!this.core.store.get(NAMESPACES, '', name)) create(name);
    }
  }

  /** Maps one resource's informer events to requests. */
  handler(resource: string, enqueue: (request: Request) => void): EventHandler<StoredObject> {
    const terminating = (obj: StoredObject) => {
      if (obj.metadata.deletionTimestamp) enqueue({ namespace: '', name: obj.metadata.name as string });
    };
    if (resource === NAMESPACES) return { onAdd: terminating, onUpdate: (_old, obj) => terminating(obj) };
    return {
      onDelete: (obj) => {
        const namespace = obj.metadata.namespace;
        if (!namespace) return;
        const ns = this.core.store.get(NAMESPACES, '', namespace);
        if (ns?.object.metadata.deletionTimestamp) enqueue({ namespace: '', name: namespace });
      },
    };
  }

  async reconcile(request: Request): Promise<void> {
    this.cleanup(request.name);
  }

  private cleanup(name: string): void {
    const ns = this.core.store.get(NAMESPACES, '', name);
    if (!ns?.object.metadata.deletionTimestamp) return;
    let remaining = 0;
    for (const resource of this.core.store.resourceKeys()) {
      if (resource === NAMESPACES || resource === CRD_KEY) continue;
      for (const entry of this.core.store.list(resource, name)) {
        remaining++;
        if (!entry.object.metadata.deletionTimestamp) {
          this.actions.delete({ resource, namespace: name, name: entry.name }, 'Background');
        }
      }
    }
    if (remaining > 0) return;
    this.actions.updateMeta({ resource: NAMESPACES, namespace: '', name }, (obj) => {
      const spec = (obj.spec ?? {}) as { finalizers?: string[] };
      obj.spec = { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== 'kubernetes') };
    });
    const after = this.core.store.get(NAMESPACES, '', name)?.object;
    const specFinalizers = ((after?.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []).length;
    if (after && !specFinalizers && !(after.metadata.finalizers ?? []).length)
      this.core.store.remove(NAMESPACES, '', name, after);
  }
}
