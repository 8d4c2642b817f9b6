import type { KubeObject, OwnerReference } from './object/types.js';

/** An ownerReference to `owner`; `controller: true` makes it the one controller that manages the dependent. */
export function ownerReferenceTo(
  owner: KubeObject,
  options: { controller?: boolean; blockOwnerDeletion?: boolean } = {},
): OwnerReference {
  const { apiVersion, kind } = owner;
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!apiVersion || !kind || !name || !uid)
    throw new Error(
      `cannot refer to an owner without apiVersion, kind, name and uid (${kind ?? '?'} "${name ?? '?'}")`,
    );
  return {
    apiVersion,
    kind,
    name,
    uid,
    ...(options.controller !== undefined ? { controller: options.controller } : {}),
    ...(options.blockOwnerDeletion !== undefined ? { blockOwnerDeletion: options.blockOwnerDeletion } : {}),
  };
}

/** The ownerReference with `controller: true`, if any. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller);
}

/** True when `obj`'s controller is the object with this uid. */
export function isControlledBy(obj: KubeObject, ownerUid: string): boolean {
  return controllerOf(obj)?.uid === ownerUid;
}

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata?.finalizers?.includes(finalizer) ?? false;
}

/** The finalizer list with `finalizer` added (unchanged order, no duplicate). */
export function finalizersWith(obj: KubeObject, finalizer: string): string[] {
  const current = obj.metadata?.finalizers ?? [];
  return current.includes(finalizer) ? [...current] : [...current, finalizer];
}

/** The finalizer list without `finalizer`. */
export function finalizersWithout(obj: KubeObject, finalizer: string): string[] {
  return (obj.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
}
