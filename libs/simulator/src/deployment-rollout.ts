/**
 * Rollout planning for the Deployment controller: the replica arithmetic of
 * RollingUpdate (maxSurge / maxUnavailable fenceposts, how far the new
 * ReplicaSet may grow) and of proportional scaling. Pure functions of the
 * deployment spec and the ReplicaSets, so the controller only applies results.
 */
import type { IDeploymentSpec } from 'kubernetes-models/apps/v1/DeploymentSpec';
import { MAX_REPLICAS, byCreation } from './deployment-revisions.js';
import type { Deployment, ReplicaSet } from './sim.js';
import { scaledValue } from './values.js';

/** A Deployment's spec as the sync reads it (`{}` when it has none). */
export type DeploymentSpec = Partial<IDeploymentSpec>;

export const replicasOf = (obj: ReplicaSet | undefined) => obj?.spec?.replicas ?? 0;
/** A replica count of a ReplicaSet's or a Deployment's status, 0 when absent. */
export const statusNum = (
  obj: ReplicaSet | Deployment | undefined,
  key: 'replicas' | 'availableReplicas' | 'readyReplicas' | 'observedGeneration',
) => obj?.status?.[key] ?? 0;
export const sum = <T>(list: T[], f: (o: T) => number) => list.reduce((n, o) => n + f(o), 0);

/** spec.replicas, defaulting to one. */
export const desiredReplicas = (spec: DeploymentSpec): number => spec.replicas ?? 1;

export const isRolling = (spec: DeploymentSpec): boolean =>
  (spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';

/** ResolveFenceposts: maxSurge rounds up, maxUnavailable down, and both zero means one unavailable. */
function fenceposts(spec: DeploymentSpec): { surge: number; unavailable: number } {
  const replicas = desiredReplicas(spec);
  const r = spec.strategy?.rollingUpdate ?? {};
  const surge = scaledValue(r.maxSurge ?? '25%', replicas, true);
  let unavailable = scaledValue(r.maxUnavailable ?? '25%', replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

export function maxSurge(spec: DeploymentSpec): number {
  return isRolling(spec) ? fenceposts(spec).surge : 0;
}

export function maxUnavailable(spec: DeploymentSpec): number {
  const replicas = desiredReplicas(spec);
  if (!isRolling(spec) || replicas === 0) return 0;
  return Math.min(fenceposts(spec).unavailable, replicas);
}

/** NewRSNewReplicas: how far the new ReplicaSet may grow right now. */
export function newRSNewReplicas(spec: DeploymentSpec, all: ReplicaSet[], newRS: ReplicaSet): number {
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
  spec: DeploymentSpec,
  active: ReplicaSet[],
  deploymentReplicas: number,
): Array<[ReplicaSet, number]> {
  const replicas = desiredReplicas(spec);
  const allowed = replicas > 0 ? replicas + maxSurge(spec) : 0;
  const toAdd = allowed - sum(active, replicasOf);
  const ordered = [...active].sort((a, b) => {
    const size = replicasOf(b) - replicasOf(a);
    if (size) return size;
    return toAdd > 0 ? byCreation(b, a) : byCreation(a, b);
  });
  const sizes = new Map<ReplicaSet, number>();
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
  spec: DeploymentSpec,
  rs: ReplicaSet,
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
