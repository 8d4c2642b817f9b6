/**
 * Controller references: which objects a controller owns,
 * and adopting the orphans its selector matches (controller_ref_manager.go).
 */
import {
  controllerOf,
  deepCopy,
  type GroupVersionResource,
  type LabelSelector,
  labelSelectorMatches,
  type OwnerReference,
  ownerReferenceTo,
  type StoredObject,
} from '#kube-core';
import { writeObj } from './objects.js';
import type { Obj, Sim } from './sim.js';

/** The controller reference a simulated controller puts on what it creates or adopts. */
export const controllerRef = (owner: StoredObject): OwnerReference =>
  ownerReferenceTo(owner, { controller: true, blockOwnerDeletion: true });

/**
 * The controller's claim on dependents (controller_ref_manager.go): objects it
 * controls, plus orphans its selector matches, which it adopts by adding a
 * controller reference. Adoption is skipped while the owner is being deleted.
 */
export function claim(
  sim: Sim,
  gvr: GroupVersionResource,
  owner: StoredObject,
  candidates: StoredObject[],
): StoredObject[] {
  const selector = (owner.spec as Obj | undefined)?.selector as LabelSelector | undefined;
  const owned: StoredObject[] = [];
  for (const obj of candidates) {
    const ref = controllerOf(obj);
    if (ref) {
      if (ref.uid === owner.metadata.uid) owned.push(obj);
      continue;
    }
    if (owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp) continue;
    if (!labelSelectorMatches(selector, obj.metadata.labels)) continue;
    const adopted = deepCopy(obj);
    adopted.metadata.ownerReferences = [...(adopted.metadata.ownerReferences ?? []), controllerRef(owner)];
    owned.push(writeObj(sim, gvr, adopted));
  }
  return owned;
}
