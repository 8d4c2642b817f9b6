import type { EventHandler, Reconciler, Request } from '#runtime';
import type { Core } from '../core.js';
import { CRD_KEY } from '../resources/crds.js';
import type { GcActions } from './gc.js';
import { nowTimestamp } from '../objects/meta.js';
import { type StoredObject } from '#kube-core';

/** The finalizer apiextensions-apiserver puts on a CRD being deleted, until its custom resources are gone. */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

interface CrdSpec {
  group: string;
  names: { plural: string };
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** Where a CRD's custom resources are stored ("<group>/<plural>"). */
export function customResourceKey(crd: StoredObject): string {
  const spec = crd.spec as CrdSpec;
  return `${spec.group}/${spec.names.plural}`;
}

/** Sets (or replaces) the CRD's Terminating condition, keeping lastTransitionTime when the status stays. */
export function setTerminating(
  crd: StoredObject,
  status: 'True' | 'False',
  reason: string,
  message: string,
): void {
  const current = ((crd.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).slice();
  const i = current.findIndex((c) => c.type === 'Terminating');
  const previous = i >= 0 ? current[i] : undefined;
  const next: Condition = {
    type: 'Terminating',
    status,
    lastTransitionTime:
      previous?.status === status && previous.lastTransitionTime
        ? previous.lastTransitionTime
        : nowTimestamp(),
    reason,
    message,
  };
  if (i >= 0) current[i] = next;
  else current.push(next);
  crd.status = { ...((crd.status as object | undefined) ?? {}), conditions: current };
}

/**
 * apiextensions-apiserver's CRD finalizer: a CRD marked for deletion has every custom resource
 * deleted (their finalizers are honoured); once none is left, its cleanup finalizer goes and the
 * CRD is removed. Until then it reports Terminating and refuses new custom resources.
 * Requests name a CRD; they come from the CRD being marked for deletion, and from
 * its custom resources going away.
 */
export class CrdCleanupController implements Reconciler {
  constructor(
    private readonly core: Core,
    private readonly actions: GcActions,
  ) {}

  /** Maps one resource's informer events to requests. */
  handler(resource: string, enqueue: (request: Request) => void): EventHandler<StoredObject> {
    const deleting = (obj: StoredObject) => {
      if (obj.metadata.deletionTimestamp) enqueue({ namespace: '', name: obj.metadata.name as string });
    };
    if (resource === CRD_KEY) return { onAdd: deleting, onUpdate: (_old, obj) => deleting(obj) };
    return {
      onDelete: () => {
        for (const crd of this.core.store.list(CRD_KEY)) {
          if (crd.object.metadata.deletionTimestamp && customResourceKey(crd.object) === resource)
            enqueue({ namespace: '', name: crd.name });
        }
      },
    };
  }

  async reconcile(request: Request): Promise<void> {
    this.cleanup(request.name);
  }

  private cleanup(name: string): void {
    const entry = this.core.store.get(CRD_KEY, '', name);
    const crd = entry?.object;
    if (!crd?.metadata.deletionTimestamp || !(crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER))
      return;
    const key = customResourceKey(crd);
    const remaining = this.core.store.list(key);
    if (remaining.length) {
      this.updateCondition(
        name,
        'True',
        'InstanceDeletionInProgress',
        'CustomResource deletion is in progress',
      );
      for (const cr of remaining) {
        if (!cr.object.metadata.deletionTimestamp)
          this.actions.delete({ resource: key, namespace: cr.namespace, name: cr.name }, 'Background');
      }
      // Objects without finalizers went at once; the others are waited for (DELETED events reschedule).
      if (this.core.store.list(key).length) return;
    }
    this.updateCondition(name, 'False', 'InstanceDeletionCompleted', 'removed all instances');
    this.actions.updateMeta({ resource: CRD_KEY, namespace: '', name }, (obj) => {
      const rest = (obj.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
      if (rest.length) obj.metadata.finalizers = rest;
      else delete obj.metadata.finalizers;
    });
  }

  /** Writes the Terminating condition straight to the store (the controller's status update). */
  private updateCondition(name: string, status: 'True' | 'False', reason: string, message: string): void {
    const entry = this.core.store.get(CRD_KEY, '', name);
    if (!entry) return;
    const conditions = (entry.object.status as { conditions?: Condition[] } | undefined)?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'Terminating');
    if (current?.status === status && current.reason === reason) return;
    const next = structuredClone(entry.object);
    setTerminating(next, status, reason, message);
    this.core.store.put(CRD_KEY, next);
  }
}
