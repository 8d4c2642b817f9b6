/**
 * Deployment status and conditions, after sync.go/progress.go: the replica
 * counts summed from the ReplicaSets, and the Available, Progressing and
 * ReplicaFailure conditions with kube's reasons and messages (tools such as
 * `kubectl rollout status` match on them). No API calls happen here: the
 * controller passes in what it read and writes back what these return.
 */
import { deepCopy } from '#kube-core';
import type { IDeploymentStatus } from 'kubernetes-models/apps/v1/DeploymentStatus';
import { replicasOf, statusNum, sum, type DeploymentSpec } from './deployment-rollout.js';
import type { Deployment, ReplicaSet } from './sim.js';
import { findCondition, parseTime, timestamp, type Condition } from './values.js';

// Condition reasons (pkg/controller/deployment/util).
export const NEW_RS_CREATED = 'NewReplicaSetCreated';
export const FOUND_NEW_RS = 'FoundNewReplicaSet';
const RS_UPDATED = 'ReplicaSetUpdated';
const NEW_RS_AVAILABLE = 'NewReplicaSetAvailable';
const TIMED_OUT = 'ProgressDeadlineExceeded';
const PAUSED = 'DeploymentPaused';
const RESUMED = 'DeploymentResumed';

/** A Deployment's status as the sync builds it. */
export type DeploymentStatus = IDeploymentStatus;

/** The status counts that are left out when zero. */
export const STATUS_COUNTS: Array<keyof DeploymentStatus> = [
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
  'unavailableReplicas',
];

export function newCondition(
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  now: number,
) {
  const t = timestamp(now);
  return { type, status, lastUpdateTime: t, lastTransitionTime: t, reason, message } as Condition;
}

/** SetDeploymentCondition: no-op for the same status+reason; keeps lastTransitionTime for the same status; moves it last. */
export function setCondition(status: { conditions?: Condition[] }, condition: Condition): void {
  const conditions = status.conditions ?? [];
  const current = findCondition(conditions, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  if (current && current.status === condition.status)
    condition.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...conditions.filter((c) => c.type !== condition.type), condition];
}

function removeCondition(status: { conditions?: Condition[] }, type: string): void {
  const rest = (status.conditions ?? []).filter((c) => c.type !== type);
  if (rest.length) status.conditions = rest;
  else delete status.conditions;
}

/** Whether progressDeadlineSeconds is set to something other than "never" (MaxInt32). */
export function hasProgressDeadline(spec: DeploymentSpec): boolean {
  const s = spec.progressDeadlineSeconds;
  return typeof s === 'number' && s !== 2147483647;
}

/** checkPausedConditions: Progressing becomes Unknown/DeploymentPaused (or DeploymentResumed). */
export function checkPausedConditions(spec: DeploymentSpec, work: DeploymentStatus, now: () => number): void {
  if (!hasProgressDeadline(spec)) return;
  const cond = findCondition(work.conditions, 'Progressing');
  if (cond?.reason === TIMED_OUT) return;
  const pausedExists = cond?.reason === PAUSED;
  const t = now();
  if (spec.paused && !pausedExists)
    setCondition(work, newCondition('Progressing', 'Unknown', PAUSED, 'Deployment is paused', t));
  else if (!spec.paused && pausedExists)
    setCondition(work, newCondition('Progressing', 'Unknown', RESUMED, 'Deployment is resumed', t));
}

/** calculateStatus: counts from the ReplicaSets, and the Available condition. */
export function calculateStatus(
  d: Deployment,
  work: DeploymentStatus,
  all: ReplicaSet[],
  newRS: ReplicaSet | undefined,
  minAvailable: number,
  now: () => number,
): DeploymentStatus {
  const available = sum(all, (rs) => statusNum(rs, 'availableReplicas'));
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: sum(all, (rs) => statusNum(rs, 'replicas')),
    updatedReplicas: statusNum(newRS, 'replicas'),
    readyReplicas: sum(all, (rs) => statusNum(rs, 'readyReplicas')),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, sum(all, replicasOf) - available),
    ...(work.conditions ? { conditions: deepCopy(work.conditions) } : {}),
    ...(work.collisionCount !== undefined ? { collisionCount: work.collisionCount } : {}),
  };
  const t = now();
  if (available >= minAvailable) {
    const msg = 'Deployment has minimum availability.';
    setCondition(status, newCondition('Available', 'True', 'MinimumReplicasAvailable', msg, t));
  } else {
    const msg = 'Deployment does not have minimum availability.';
    setCondition(status, newCondition('Available', 'False', 'MinimumReplicasUnavailable', msg, t));
  }
  return status;
}

export function deploymentComplete(
  status: DeploymentStatus,
  replicas: number,
  generation: number | undefined,
): boolean {
  return (
    (status.updatedReplicas ?? 0) === replicas &&
    (status.replicas ?? 0) === replicas &&
    (status.availableReplicas ?? 0) === replicas &&
    (status.observedGeneration ?? 0) >= (generation ?? 0)
  );
}

/** What syncRolloutStatus needs besides the freshly calculated status. */
export interface RolloutContext {
  d: Deployment;
  spec: DeploymentSpec;
  /** The status as stored when the sync started. */
  base: DeploymentStatus;
  /** The status being built during the sync (its Progressing condition is the current one). */
  work: DeploymentStatus;
  all: ReplicaSet[];
  newRS?: ReplicaSet;
  replicas: number;
  now: number;
}

/** syncRolloutStatus's conditions: Progressing (progressed, progressing or timed out) and ReplicaFailure. */
export function applyRolloutConditions(status: DeploymentStatus, ctx: RolloutContext): void {
  const { d, spec, now } = ctx;
  const deadline = hasProgressDeadline(spec);
  if (!deadline) removeCondition(status, 'Progressing');
  const current = findCondition(ctx.work.conditions, 'Progressing');
  const complete = status.replicas === status.updatedReplicas && current?.reason === NEW_RS_AVAILABLE;
  const rsName = ctx.newRS?.metadata.name;
  if (deadline && !complete) {
    if (deploymentComplete(status, ctx.replicas, d.metadata.generation)) {
      const msg = rsName
        ? `ReplicaSet "${rsName}" has successfully progressed.`
        : `Deployment "${d.metadata.name}" has successfully progressed.`;
      setCondition(status, newCondition('Progressing', 'True', NEW_RS_AVAILABLE, msg, now));
    } else if (progressing(ctx.base, status)) {
      const msg = rsName
        ? `ReplicaSet "${rsName}" is progressing.`
        : `Deployment "${d.metadata.name}" is progressing.`;
      const cond = newCondition('Progressing', 'True', RS_UPDATED, msg, now);
      if (current?.status === 'True') cond.lastTransitionTime = current.lastTransitionTime;
      removeCondition(status, 'Progressing');
      setCondition(status, cond);
    } else if (timedOut(spec, status, now)) {
      const msg = rsName
        ? `ReplicaSet "${rsName}" has timed out progressing.`
        : `Deployment "${d.metadata.name}" has timed out progressing.`;
      setCondition(status, newCondition('Progressing', 'False', TIMED_OUT, msg, now));
    }
  }
  // Failure conditions of the ReplicaSets surface as ReplicaFailure on the deployment.
  const failure = ctx.all
    .map((rs) => findCondition(rs.status?.conditions, 'ReplicaFailure'))
    .find((c) => c?.status === 'True');
  if (failure) {
    setCondition(
      status,
      newCondition('ReplicaFailure', 'True', failure.reason ?? '', failure.message ?? '', now),
    );
  } else removeCondition(status, 'ReplicaFailure');
}

function progressing(base: DeploymentStatus, status: DeploymentStatus): boolean {
  const oldOld = (base.replicas ?? 0) - (base.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (
    (status.updatedReplicas ?? 0) > (base.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (status.readyReplicas ?? 0) > (base.readyReplicas ?? 0) ||
    (status.availableReplicas ?? 0) > (base.availableReplicas ?? 0)
  );
}

function timedOut(spec: DeploymentSpec, status: DeploymentStatus, now: number): boolean {
  if (!hasProgressDeadline(spec)) return false;
  const cond = findCondition(status.conditions, 'Progressing');
  if (!cond) return false;
  if (cond.reason === NEW_RS_AVAILABLE) return false;
  if (cond.reason === TIMED_OUT) return true;
  const from = parseTime(cond.lastUpdateTime);
  return from !== undefined && from + (spec.progressDeadlineSeconds as number) * 1000 < now;
}

/**
 * requeueStuckDeployment: how long until the progress deadline would pass (at least a second),
 * or undefined when nothing needs to wake up.
 */
export function progressDeadlineWait(
  spec: DeploymentSpec,
  status: DeploymentStatus,
  replicas: number,
  generation: number | undefined,
  now: number,
): number | undefined {
  const cond = findCondition(status.conditions, 'Progressing');
  if (!hasProgressDeadline(spec) || !cond || cond.status !== 'True') return undefined;
  if (cond.reason === NEW_RS_AVAILABLE || deploymentComplete(status, replicas, generation)) return undefined;
  const from = parseTime(cond.lastUpdateTime);
  if (from === undefined) return undefined;
  const wait = from + (spec.progressDeadlineSeconds as number) * 1000 - now + 1000;
  return Math.max(wait, 1000);
}
