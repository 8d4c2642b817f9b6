/**
 * Controller references: which objects a controller owns,
 * and adopting the orphans its selector matches (controller_ref_manager.go).
 */
import {
  controllerOf,
  deepCopy,
  type LabelSelector,
  labelSelectorMatches,
  type OwnerReference,
  ownerReferenceTo,
  type StoredObject,
} from '#kube-core';
import { listObjs, writeObj } from './objects.js';
import type { Resource, Sim } from './sim.js';

/** An owner whose `spec.selector` picks its dependents (a workload, a Service's is a plain map). */
export type Selecting = StoredObject & { spec?: { selector?: object } };

/** The controller reference a simulated controller puts on what it creates or adopts. */
export const controllerRef = (owner: StoredObject): OwnerReference =>
  ownerReferenceTo(owner, { controller: true, blockOwnerDeletion: true });

/** Whether `claim` keeps `obj`: `owner` controls it, or it is an orphan `owner`'s selector may adopt. */
export function claimable(owner: Selecting): (obj: StoredObject) => boolean {
  const selector = owner.spec?.selector as LabelSelector | undefined;
  return (obj) => {
    const ref = controllerOf(obj);
    if (ref) return ref.uid === owner.metadata.uid;
    if (owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp) return false;
    return labelSelectorMatches(selector, obj.metadata.labels);
  };
}

/**
 * The controller's claim on dependents (controller_ref_manager.go): objects it
 * controls, plus orphans its selector matches, which it adopts by adding a
 * controller reference. Adoption is skipped while the owner is being deleted.
 */
export function claim<T extends StoredObject>(
  sim: Sim,
  gvr: Resource<T>,
  owner: Selecting,
  candidates: T[],
): T[] {
  const mayClaim = claimable(owner);
  const owned: T[] = [];
  for (const obj of candidates) {
    if (!mayClaim(obj)) continue;
    if (controllerOf(obj)) {
      owned.push(obj);
      continue;
    }
    const adopted = deepCopy(obj);
    adopted.metadata.ownerReferences = [...(adopted.metadata.ownerReferences ?? []), controllerRef(owner)];
    owned.push(writeObj(sim, gvr, adopted));
  }
  return owned;
}

/** `claim` over the owner's namespace, copying only what it may claim (found by index: its dependents and orphans). */
export function claimInNamespace<T extends StoredObject>(sim: Sim, gvr: Resource<T>, owner: Selecting): T[] {
  const candidates = { ownerUid: owner.metadata.uid as string };
  return claim(
    sim,
    gvr,
    owner,
    listObjs(sim, gvr, owner.metadata.namespace ?? '', claimable(owner), candidates),
  );
}
