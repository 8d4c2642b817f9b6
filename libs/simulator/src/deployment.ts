/**
 * The Deployment controller (pkg/controller/deployment): one ReplicaSet per pod
 * template, named `<deployment>-<pod-template-hash>`, with the hash label in its
 * selector, template and labels, a controller reference, and the revision,
 * desired-replicas and max-replicas annotations. A template change creates a
 * new ReplicaSet and rolls over (RollingUpdate with maxSurge/maxUnavailable, or
 * Recreate); a replicas change scales proportionally; old ReplicaSets beyond
 * revisionHistoryLimit are deleted. Status and the Available/Progressing
 * conditions follow sync.go/progress.go, including their reasons and messages.
 *
 * This file is the sync loop that reads and writes the API; the arithmetic is in
 * deployment-rollout.ts, the annotations in deployment-revisions.ts and the
 * status/conditions in deployment-status.ts.
 */
import { controllerOf } from '#kube-core';
import { DESIRED_REPLICAS, byCreation } from './deployment-revisions.js';
import { DeploymentReplicaSets } from './deployment-replicasets.js';
import {
  maxUnavailable,
  newRSNewReplicas,
  proportionalSizes,
  replicasOf,
  statusNum,
  sum,
} from './deployment-rollout.js';
import {
  applyRolloutConditions,
  calculateStatus,
  checkPausedConditions,
  deploymentComplete,
  progressDeadlineWait,
  type DeploymentStatus,
} from './deployment-status.js';
import { isPodActive } from './pods.js';
import { GVR, keyOf, type Pod, type ReplicaSet, type Sim } from './sim.js';
import { getObj, listObjs } from './objects.js';
import { claimInNamespace } from './ownership.js';

export { HASH_LABEL, REVISION, equalIgnoreHash } from './deployment-revisions.js';

export const DEPLOYMENT = 'deployment';

export function reconcileDeployment(sim: Sim, namespace: string, name: string): void {
  const d = getObj(sim, GVR.deployments, namespace, name);
  if (!d) return;
  new DeploymentSync(sim, d).run();
}

/** One sync of one deployment: picks the path (deleting, paused, scaling, Recreate, RollingUpdate) and the status to write. */
class DeploymentSync extends DeploymentReplicaSets {
  run(): void {
    this.rsList = claimInNamespace(this.sim, GVR.replicasets, this.d).sort(byCreation);
    if (this.d.metadata.deletionTimestamp) {
      this.resolveReplicaSets(false);
      return this.syncStatus();
    }
    checkPausedConditions(this.spec, this.work, () => this.sim.now());
    if (this.spec.paused) return this.syncScaling();
    this.resolveReplicaSets(false);
    if (this.isScalingEvent()) return this.syncScaling();
    if (this.spec.strategy?.type === 'Recreate') return this.rolloutRecreate();
    return this.rolloutRolling();
  }

  // ------------------------------------------------------------ strategies

  private rolloutRolling(): void {
    if (!this.newRS) this.resolveReplicaSets(true);
    const newRS = this.newRS as ReplicaSet;
    if (this.reconcileNewReplicaSet(newRS)) return this.syncRolloutStatus();
    if (this.reconcileOldReplicaSets()) return this.syncRolloutStatus();
    if (this.deploymentComplete(this.base)) this.cleanup();
    this.syncRolloutStatus();
  }

  private reconcileNewReplicaSet(newRS: ReplicaSet): boolean {
    if (replicasOf(newRS) === this.replicas) return false;
    if (replicasOf(newRS) > this.replicas) return this.scaleReplicaSet(newRS, this.replicas);
    return this.scaleReplicaSet(newRS, newRSNewReplicas(this.spec, this.allRSs(), newRS));
  }

  private reconcileOldReplicaSets(): boolean {
    const newRS = this.newRS as ReplicaSet;
    const activeOld = this.oldRSs.filter((rs) => replicasOf(rs) > 0);
    if (sum(activeOld, replicasOf) === 0) return false;
    const allPods = sum(this.allRSs(), replicasOf);
    const minAvailable = this.replicas - maxUnavailable(this.spec);
    const newUnavailable = replicasOf(newRS) - statusNum(newRS, 'availableReplicas');
    const maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let scaledDown = 0;
    // cleanupUnhealthyReplicas: unavailable old pods go first, whatever the availability budget.
    for (const rs of [...activeOld].sort(byCreation)) {
      if (scaledDown >= maxScaledDown) break;
      const live = this.oldRSs.find((r) => r.metadata.uid === rs.metadata.uid) as ReplicaSet;
      const unhealthy = replicasOf(live) - statusNum(live, 'availableReplicas');
      if (replicasOf(live) === 0 || unhealthy <= 0) continue;
      const n = Math.min(maxScaledDown - scaledDown, unhealthy);
      this.scaleReplicaSet(live, replicasOf(live) - n);
      scaledDown += n;
    }
    // scaleDownOldReplicaSetsForRollingUpdate: then as many available ones as maxUnavailable allows.
    const available = sum(this.allRSs(), (rs) => statusNum(rs, 'availableReplicas'));
    if (available > minAvailable) {
      const budget = available - minAvailable;
      let done = 0;
      for (const rs of [...this.oldRSs].sort(byCreation)) {
        if (done >= budget) break;
        if (replicasOf(rs) === 0) continue;
        const n = Math.min(replicasOf(rs), budget - done);
        this.scaleReplicaSet(rs, replicasOf(rs) - n);
        done += n;
      }
      scaledDown += done;
    }
    return scaledDown > 0;
  }

  private rolloutRecreate(): void {
    let scaledDown = false;
    for (const rs of this.oldRSs.filter((r) => replicasOf(r) > 0)) {
      if (this.scaleReplicaSet(rs, 0)) scaledDown = true;
    }
    if (scaledDown || this.oldPodsRunning()) return this.syncRolloutStatus();
    if (!this.newRS) this.resolveReplicaSets(true);
    this.scaleReplicaSet(this.newRS as ReplicaSet, this.replicas);
    if (this.deploymentComplete(this.base)) this.cleanup();
    this.syncRolloutStatus();
  }

  /** Recreate waits until no pod of an old ReplicaSet is Pending, Running or Unknown. */
  private oldPodsRunning(): boolean {
    if (sum(this.oldRSs, (rs) => statusNum(rs, 'replicas')) > 0) return true;
    const oldUids = new Set(this.oldRSs.map((rs) => rs.metadata.uid));
    const old = (p: Pod) => oldUids.has(controllerOf(p)?.uid) && isPodActive(p);
    return listObjs(this.sim, GVR.pods, this.d.metadata.namespace as string, old).length > 0;
  }

  /** isScalingEvent: an active ReplicaSet was sized for a different spec.replicas. */
  private isScalingEvent(): boolean {
    return this.allRSs()
      .filter((rs) => replicasOf(rs) > 0)
      .some((rs) => {
        const desired = rs.metadata.annotations?.[DESIRED_REPLICAS];
        return desired !== undefined && Number(desired) !== this.replicas;
      });
  }

  /** sync: scaling events and paused deployments (no rollout). */
  private syncScaling(): void {
    if (this.spec.paused) this.resolveReplicaSets(false);
    this.scale();
    this.cleanup();
    this.syncStatus();
  }

  /** scale: one active ReplicaSet takes the full size; otherwise scale proportionally to their sizes. */
  private scale(): void {
    const all = this.allRSs();
    const active = all.filter((rs) => replicasOf(rs) > 0);
    let activeOrLatest: ReplicaSet | undefined;
    if (active.length === 1) activeOrLatest = active[0];
    else if (active.length === 0) activeOrLatest = this.newRS ?? [...all].sort(byCreation).pop();
    if (activeOrLatest || active.length === 0) {
      if (activeOrLatest && replicasOf(activeOrLatest) !== this.replicas)
        this.scaleReplicaSet(activeOrLatest, this.replicas);
      return;
    }
    const newRS = this.newRS;
    if (
      newRS &&
      replicasOf(newRS) === this.replicas &&
      newRS.metadata.annotations?.[DESIRED_REPLICAS] === String(this.replicas) &&
      statusNum(newRS, 'availableReplicas') === this.replicas
    ) {
      for (const rs of this.oldRSs.filter((r) => replicasOf(r) > 0)) this.scaleReplicaSet(rs, 0);
      return;
    }
    if (!this.rolling) return;
    const sizes = proportionalSizes(this.spec, active, statusNum(this.d, 'replicas'));
    for (const [rs, size] of sizes) this.scaleReplicaSet(rs, size);
  }

  // ------------------------------------------------------------ status

  private calculateStatus(): DeploymentStatus {
    const minAvailable = this.replicas - maxUnavailable(this.spec);
    return calculateStatus(this.d, this.work, this.allRSs(), this.newRS, minAvailable, () => this.sim.now());
  }

  private deploymentComplete(status: DeploymentStatus): boolean {
    return deploymentComplete(status, this.replicas, this.d.metadata.generation);
  }

  /** syncDeploymentStatus: status without progress estimation (scaling, paused, deleting). */
  private syncStatus(): void {
    this.write(this.calculateStatus());
  }

  /** syncRolloutStatus: status plus the Progressing condition, and a wake-up for the progress deadline. */
  private syncRolloutStatus(): void {
    const status = this.calculateStatus();
    const now = this.sim.now();
    applyRolloutConditions(status, {
      d: this.d,
      spec: this.spec,
      base: this.base,
      work: this.work,
      all: this.allRSs(),
      newRS: this.newRS,
      replicas: this.replicas,
      now,
    });
    this.write(status);
    this.requeueStuck(status, now);
  }

  /** requeueStuckDeployment: wake up when the progress deadline would pass. */
  private requeueStuck(status: DeploymentStatus, now: number): void {
    const wait = progressDeadlineWait(this.spec, status, this.replicas, this.d.metadata.generation, now);
    if (wait === undefined) return;
    const { namespace, name } = this.d.metadata;
    this.sim.enqueue(keyOf(DEPLOYMENT, namespace as string, name as string), wait);
  }
}
