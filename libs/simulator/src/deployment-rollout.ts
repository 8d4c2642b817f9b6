/**
 * Rollout planning for the Deployment controller: the replica arithmetic of
 * RollingUpdate (maxSurge / maxUnavailable fenceposts, how far the new
 * ReplicaSet may grow) and of proportional scaling. Pure functions of the
 * deployment spec and the ReplicaSets, so the controller only applies results.
 */
import { type StoredObject } from '#kube-core';
import { MAX_REPLICAS, byCreation } from './deployment-revisions.js';
import { type Obj } from './sim.js';
import { scaledValue } from './values.js';

export const replicasOf = (obj: StoredObject | undefined) =>
  ((obj?.spec as Obj | undefined)?.replicas as number) ?? 0;
export const statusNum = (obj: StoredObject | undefined, key: string) =>
  ((obj?.status as Obj | undefined)?.[key] as number | undefined) ?? 0;
export const sum = (list: StoredObject[], f: (o: StoredObject) => number) =>
  list.reduce((n, o) => n + f(o), 0);

/** spec.replicas, defaulting to one. */
export const desiredReplicas = (spec: Obj): number => (spec.replicas as number | undefined) ?? 1;

export const isRolling = (spec: Obj): boolean => (spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** ResolveFenceposts: maxSurge rounds up, maxUnavailable down, and both zero means one unavailable. */
function fenceposts(spec: Obj): { surge: number; unavailable: number } {
  const replicas = desiredReplicas(spec);
  const r = (spec.strategy?.rollingUpdate ?? {}) as Obj;
  const surge = scaledValue(r.maxSurge ?? '25%', replicas, true);
  let unavailable = scaledValue(r.maxUnavailable ?? '25%', replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(spec: Obj): number {
  return isRolling(spec) ? fenceposts(spec).surge : 0;
}

export function maxUnavailable(spec: Obj): number {
  const replicas = desiredReplicas(spec);
  if (!isRolling(spec) || replicas === 0) return 0;
  return Math.min(fenceposts(spec).unavailable, replicas);
}

/** NewRSNewReplicas: how far the new ReplicaSet may grow right now. */
export function newRSNewReplicas(spec: Obj, all: StoredObject[], newRS: StoredObject): number {
  const replicas = desiredReplicas(spec);
  if (!isRolling(spec)) return replicas;
  const current = sum(all, replicasOf);
  const maxTotal = replicas + maxSurge(spec);
  if (current >= maxTotal) return replicasOf(newRS);
  const up = Math.min(maxTotal - current, Math.max(0, replicas - replicasOf(newRS)));
  return replicasOf(newRS) + up;
}

/**
 * scale's proportional branch: the new size of each active ReplicaSet, in the order they are
 * to be scaled. `deploymentReplicas` is status.replicas, used when a ReplicaSet lacks max-replicas.
 */
export function proportionalSizes(
  spec: Obj,
  active: StoredObject[],
  deploymentReplicas: number,
): Array<[StoredObject, number]> {
  const replicas = desiredReplicas(spec);
  const allowed = replicas > 0 ? replicas + maxSurge(spec) : 0;
  const toAdd = allowed - sum(active, replicasOf);
  const ordered = [...active].sort((a, b) => {
    const size = replicasOf(b) - replicasOf(a);
    if (size) return size;
    return toAdd > 0 ? byCreation(b, a) : byCreation(a, b);
  });
  const sizes = new Map<StoredObject, number>();
  let added = 0;
  for (const rs of ordered) {
    const p = toAdd !== 0 ? proportion(spec, rs, toAdd, added, deploymentReplicas) : 0;
    sizes.set(rs, replicasOf(rs) + p);
    added += p;
  }
  return ordered.map((rs, i) => {
    let size = sizes.get(rs) as number;
    if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
    return [rs, size];
  });
}

function proportion(
  spec: Obj,
  rs: StoredObject,
  toAdd: number,
  added: number,
  deploymentReplicas: number,
): number {
  const replicas = desiredReplicas(spec);
  if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
  let fraction: number;
  if (replicas === 0) fraction = -replicasOf(rs);
  else {
    let before = Number(rs.metadata.annotations?.[MAX_REPLICAS] ?? 0) || 0;
    if (!before) before = deploymentReplicas;
    fraction = before
      ? Math.round((replicasOf(rs) * (replicas + maxSurge(spec))) / before) - replicasOf(rs)
      : 0;
  }
  const allowed = toAdd - added;
  return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}
