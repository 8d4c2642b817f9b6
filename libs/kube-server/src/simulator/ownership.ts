/**
 * Controller references and label selectors: which objects a controller owns,
 * and adopting the orphans its selector matches (controller_ref_manager.go).
 */
import type { Gvr } from '../controllers/in-process.js';
import { type StoredObject, type OwnerReference } from '#kube-core';
import { clone, writeObj } from './objects.js';
import type { Obj, Sim } from './sim.js';

export function controllerRef(owner: StoredObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion as string,
    kind: owner.kind as string,
    name: owner.metadata.name as string,
    uid: owner.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export const controllerOf = (obj: StoredObject): OwnerReference | undefined =>
  obj.metadata.ownerReferences?.find((r) => r.controller);

export const isControlledBy = (obj: StoredObject, owner: StoredObject) =>
  controllerOf(obj)?.uid === owner.metadata.uid;

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** metav1.LabelSelectorAsSelector(...).Matches: an empty selector matches everything. */
export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string> = {},
): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  return (selector.matchExpressions ?? []).every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    switch (e.operator) {
      case 'In':
        return has && (e.values ?? []).includes(labels[e.key]);
      case 'NotIn':
        return !has || !(e.values ?? []).includes(labels[e.key]);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
      default:
        return false;
    }
  });
}

/**
 * The controller's claim on dependents (controller_ref_manager.go): objects it
 * controls, plus orphans its selector matches, which it adopts by adding a
 * controller reference. Adoption is skipped while the owner is being deleted.
 */
export function claim(sim: Sim, gvr: Gvr, owner: StoredObject, candidates: StoredObject[]): StoredObject[] {
  const selector = (owner.spec as Obj | undefined)?.selector as LabelSelector | undefined;
  const owned: StoredObject[] = [];
  for (const obj of candidates) {
    const ref = controllerOf(obj);
    if (ref) {
      if (ref.uid === owner.metadata.uid) owned.push(obj);
      continue;
    }
    if (owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp) continue;
    if (!selectorMatches(selector, obj.metadata.labels)) continue;
    const adopted = clone(obj);
    adopted.metadata.ownerReferences = [...(adopted.metadata.ownerReferences ?? []), controllerRef(owner)];
    owned.push(writeObj(sim, gvr, adopted));
  }
  return owned;
}
