import { toExternal } from '../convert/index.js';
import type { Core } from '../core.js';
import { CRD_CLEANUP_FINALIZER, setTerminating } from '../controllers/crd-cleanup.js';
import { CRD_KEY } from '../resources/crds.js';
import { storageKey, type ResourceInfo } from '../resources/builtin.js';
import { type StoredObject } from '#kube-core';
import { conflict, notFound, nowTimestamp } from './meta.js';

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  dryRun?: boolean;
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface DeleteResult {
  /** The object as it is now: removed (with the deletion's resourceVersion) or marked for deletion. */
  object: StoredObject;
  /** True when finalizers keep the object around. */
  pending: boolean;
}

export const FOREGROUND = 'foregroundDeletion';

/** Hooks into the garbage collector that deletion needs synchronously. */
export interface DependentsView {
  hasDependents(uid: string): boolean;
  orphanDependents(uid: string): void;
}

/** Delete with finalizers, preconditions and propagation policies; namespaces and CRDs get their own cleanup. */
export class ObjectDeleter {
  constructor(
    private readonly core: Core,
    private readonly dependents: DependentsView,
  ) {}

  delete(
    info: ResourceInfo,
    namespace: string | undefined,
    name: string,
    opts: DeleteOptions = {},
  ): DeleteResult {
    const key = storageKey(info);
    const current = this.core.store.get(key, namespace ?? '', name);
    if (!current) throw notFound(info, name);
    const live = structuredClone(toExternal(info, current.object));
    const { uid, resourceVersion } = opts.preconditions ?? {};
    if (uid && uid !== live.metadata.uid) {
      throw conflict(
        info,
        name,
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${live.metadata.uid}`,
      );
    }
    if (resourceVersion && resourceVersion !== live.metadata.resourceVersion) {
      throw conflict(
        info,
        name,
        `Precondition failed: ResourceVersion in precondition: ${resourceVersion}, ResourceVersion in object meta: ${live.metadata.resourceVersion}`,
      );
    }
    if (opts.dryRun) return { object: live, pending: false };
    const meta = live.metadata;
    if (info.kind === 'Namespace' && !info.group) return this.markNamespace(info, live);
    if (key === CRD_KEY) return this.markCrd(info, live, current.object);
    const policy = opts.propagationPolicy ?? 'Background';
    const finalizers = [...(meta.finalizers ?? [])];
    if (policy === 'Orphan') this.dependents.orphanDependents(meta.uid as string);
    if (
      policy === 'Foreground' &&
      this.dependents.hasDependents(meta.uid as string) &&
      !finalizers.includes(FOREGROUND)
    ) {
      finalizers.push(FOREGROUND);
    }
    if (finalizers.length) {
      meta.finalizers = finalizers;
      // store.markAsDeleting: the first deletion bumps a generation the kind tracks.
      if (!meta.deletionTimestamp && (meta.generation ?? 0) > 0)
        meta.generation = (meta.generation as number) + 1;
      meta.deletionTimestamp ??= nowTimestamp();
      meta.deletionGracePeriodSeconds ??= 0;
      const stored = this.core.store.put(key, {
        ...current.object,
        metadata: { ...meta, resourceVersion: undefined },
      });
      return { object: toExternal(info, stored), pending: true };
    }
    const removed = this.core.store.remove(key, namespace ?? '', name) as StoredObject;
    return { object: toExternal(info, removed), pending: false };
  }

  /** Namespaces go Terminating; the namespace controller empties and then removes them. */
  private markNamespace(info: ResourceInfo, live: StoredObject): DeleteResult {
    if (!live.metadata.deletionTimestamp) {
      live.metadata.deletionTimestamp = nowTimestamp();
      live.status = { ...(live.status as object), phase: 'Terminating' };
      const stored = this.core.store.put(storageKey(info), live);
      return { object: toExternal(info, stored), pending: true };
    }
    return { object: live, pending: true };
  }

  /**
   * A CRD goes Terminating with the cleanup finalizer; the CRD cleanup controller deletes its
   * custom resources, waits for their finalizers, then lets the CRD go (apiextensions' etcd.go Delete).
   */
  private markCrd(info: ResourceInfo, live: StoredObject, stored: StoredObject): DeleteResult {
    if (live.metadata.deletionTimestamp) return { object: live, pending: true };
    // etcd.go's Delete: a plain update (no generation bump, no grace period) before the finalizer runs.
    const meta = { ...stored.metadata };
    meta.deletionTimestamp = nowTimestamp();
    if (!(meta.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER))
      meta.finalizers = [...(meta.finalizers ?? []), CRD_CLEANUP_FINALIZER];
    const next = { ...structuredClone(stored), metadata: { ...meta, resourceVersion: undefined } };
    setTerminating(
      next,
      'True',
      'InstanceDeletionPending',
      'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    );
    return { object: toExternal(info, this.core.store.put(storageKey(info), next)), pending: true };
  }
}
