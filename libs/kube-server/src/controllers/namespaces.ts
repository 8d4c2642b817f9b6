import { DeferredBatch } from './deferred-batch.js';
import type { Core } from '../core.js';
import type { GcActions } from './gc.js';
import { CRD_KEY } from '../resources/crds.js';
import type { ChangeEvent } from '../store/types.js';

const NAMESPACES = '/namespaces';

/**
 * The namespace controller: a Terminating namespace has everything in it
 * deleted; when it is empty, its `kubernetes` finalizer goes and it is removed.
 */
export class NamespaceController {
  private readonly batch = new DeferredBatch(
    (name) => this.cleanup(name),
    (namespace, error) =>
      this.core.log({ level: 'error', msg: 'namespace cleanup failed', namespace, error: String(error) }),
  );

  constructor(
    private readonly core: Core,
    private readonly actions: GcActions,
  ) {}

  start(): void {
    for (const ns of this.core.store.list(NAMESPACES))
      if (ns.object.metadata.deletionTimestamp) this.schedule(ns.name);
    this.core.store.subscribe((event) => this.onChange(event));
  }

  /** Creates default, kube-system and kube-public when missing. */
  ensureSystemNamespaces(create: (name: string) => void): void {
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      if (!this.core.store.get(NAMESPACES, '', name)) create(name);
    }
  }

  private onChange(event: ChangeEvent): void {
    if (event.resource === NAMESPACES) {
      if (event.type !== 'DELETED' && event.object.metadata.deletionTimestamp) this.schedule(event.name);
      return;
    }
    if (event.type === 'DELETED' && event.namespace) {
      const ns = this.core.store.get(NAMESPACES, '', event.namespace);
      if (ns?.object.metadata.deletionTimestamp) this.schedule(event.namespace);
    }
  }

  private schedule(name: string): void {
    this.batch.add(name);
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
