/**
 * The Deployment controller's hold on its ReplicaSets during one sync: which
 * one is new and which are old, creating the new one (with hash-collision
 * handling), keeping revisions and annotations in step, scaling one with its
 * ScalingReplicaSet event, pruning history, and writing the deployment back.
 * The sync's decisions (which strategy, how far to scale) are in deployment.ts.
 */
import { deepCopy, isControlledBy, semanticValue } from '#kube-core';
import {
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  REVISION,
  buildReplicaSet,
  byCreation,
  equalIgnoreHash,
  revisionOf,
  setNewReplicaSetAnnotations,
} from './deployment-revisions.js';
import {
  desiredReplicas,
  isRolling,
  maxSurge,
  newRSNewReplicas,
  replicasOf,
  statusNum,
  type DeploymentSpec,
} from './deployment-rollout.js';
import {
  FOUND_NEW_RS,
  NEW_RS_CREATED,
  STATUS_COUNTS,
  hasProgressDeadline,
  newCondition,
  setCondition,
  type DeploymentStatus,
} from './deployment-status.js';
import { computeHash } from './hash.js';
import { GVR, statusCode, type Deployment, type ReplicaSet, type Sim } from './sim.js';
import { createObj, deleteObj, getObj, writeObj, writeStatus } from './objects.js';
import { findCondition, omitZero } from './values.js';

const COMPONENT = 'deployment-controller';

export class DeploymentReplicaSets {
  protected readonly spec: DeploymentSpec;
  /** The status as stored when the sync started (progress is measured against it; frozen). */
  protected readonly base: DeploymentStatus;
  /** The status being built: conditions and collisionCount change along the way. */
  protected readonly work: DeploymentStatus;
  protected rsList: ReplicaSet[] = [];
  protected newRS?: ReplicaSet;
  protected oldRSs: ReplicaSet[] = [];

  constructor(
    protected readonly sim: Sim,
    protected d: Deployment,
  ) {
    this.spec = d.spec ?? {};
    this.base = d.status ?? {};
    this.work = deepCopy(this.base);
  }

  protected get replicas(): number {
    return desiredReplicas(this.spec);
  }

  protected get rolling(): boolean {
    return isRolling(this.spec);
  }

  protected get hasProgressDeadline(): boolean {
    return hasProgressDeadline(this.spec);
  }

  // ------------------------------------------------------------ replica sets

  /** getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created if asked), the old ones, revisions in step. */
  protected resolveReplicaSets(createIfNotExisted: boolean): void {
    const template = this.spec.template;
    const existing = this.rsList.find((rs) => equalIgnoreHash(rs.spec?.template, template));
    this.oldRSs = this.rsList.filter((rs) => rs !== existing);
    const newRevision = Math.max(0, ...this.oldRSs.map(revisionOf)) + 1;
    if (existing) {
      let rs = existing;
      // What may change: the annotations (replaced whole) and spec.minReadySeconds.
      const copy = { ...existing, metadata: { ...existing.metadata }, spec: { ...existing.spec! } };
      const changed = this.setNewReplicaSetAnnotations(copy, String(newRevision), true);
      const minReady = this.spec.minReadySeconds ?? 0;
      if (changed || (copy.spec.minReadySeconds ?? 0) !== minReady) {
        if (minReady) copy.spec.minReadySeconds = minReady;
        else delete copy.spec.minReadySeconds;
        rs = this.replace(writeObj(this.sim, GVR.replicasets, copy));
      }
      this.newRS = rs;
      this.setDeploymentRevision(rs.metadata.annotations?.[REVISION] ?? String(newRevision));
      if (this.hasProgressDeadline && !findCondition(this.work.conditions, 'Progressing')) {
        const msg = `Found new replica set "${rs.metadata.name}"`;
        setCondition(this.work, newCondition('Progressing', 'True', FOUND_NEW_RS, msg, this.sim.now()));
      }
      return;
    }
    this.newRS = undefined;
    if (createIfNotExisted) this.createNewReplicaSet(String(newRevision));
  }

  protected createNewReplicaSet(newRevision: string): void {
    const d = this.d;
    const hash = computeHash(semanticValue(this.spec.template), this.work.collisionCount);
    const rs = buildReplicaSet(d, this.spec, hash);
    const replicas = newRSNewReplicas(this.spec, [...this.oldRSs, rs], rs);
    rs.spec!.replicas = replicas;
    this.setNewReplicaSetAnnotations(rs, newRevision, false);
    let createdRS: ReplicaSet;
    let alreadyExisted = false;
    try {
      createdRS = createObj(this.sim, GVR.replicasets, d.metadata.namespace, rs);
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
      const found = getObj(
        this.sim,
        GVR.replicasets,
        d.metadata.namespace as string,
        rs.metadata.name as string,
      );
      if (
        found &&
        isControlledBy(found, d.metadata.uid as string) &&
        equalIgnoreHash(found.spec!.template, this.spec.template)
      ) {
        createdRS = found;
        alreadyExisted = true;
      } else {
        // A hash collision with a ReplicaSet that is not ours: bump collisionCount and try again.
        this.work.collisionCount = (this.work.collisionCount ?? 0) + 1;
        writeStatus(this.sim, GVR.deployments, this.d, {
          ...this.base,
          collisionCount: this.work.collisionCount,
        });
        throw err;
      }
    }
    if (!alreadyExisted && replicas > 0) {
      const msg = `Scaled up replica set ${createdRS.metadata.name} from 0 to ${replicas}`;
      this.sim.event(d, 'Normal', 'ScalingReplicaSet', msg, COMPONENT);
    }
    this.rsList = [...this.rsList.filter((r) => r.metadata.name !== createdRS.metadata.name), createdRS];
    this.newRS = createdRS;
    this.setDeploymentRevision(newRevision);
    if (!alreadyExisted && this.hasProgressDeadline) {
      const msg = `Created new replica set "${createdRS.metadata.name}"`;
      setCondition(this.work, newCondition('Progressing', 'True', NEW_RS_CREATED, msg, this.sim.now()));
    }
  }

  protected setNewReplicaSetAnnotations(rs: ReplicaSet, newRevision: string, exists: boolean): boolean {
    return setNewReplicaSetAnnotations(rs, this.d.metadata.annotations, newRevision, exists, () => ({
      desired: this.replicas,
      max: this.replicas + maxSurge(this.spec),
    }));
  }

  /** The deployment carries its newest revision as an annotation (a metadata-only write). */
  protected setDeploymentRevision(revision: string): void {
    if (this.d.metadata.annotations?.[REVISION] === revision) return;
    const { status: _status, ...rest } = this.d;
    const annotations = { ...(this.d.metadata.annotations ?? {}), [REVISION]: revision };
    this.d = writeObj(this.sim, GVR.deployments, { ...rest, metadata: { ...this.d.metadata, annotations } });
  }

  protected replace(rs: ReplicaSet): ReplicaSet {
    this.rsList = this.rsList.map((r) => (r.metadata.uid === rs.metadata.uid ? rs : r));
    this.oldRSs = this.oldRSs.map((r) => (r.metadata.uid === rs.metadata.uid ? rs : r));
    if (this.newRS?.metadata.uid === rs.metadata.uid) this.newRS = rs;
    return rs;
  }

  protected allRSs(): ReplicaSet[] {
    return this.newRS ? [...this.oldRSs, this.newRS] : [...this.oldRSs];
  }

  /** scaleReplicaSet: sets replicas and the desired/max annotations; records ScalingReplicaSet. */
  protected scaleReplicaSet(rs: ReplicaSet, newScale: number): boolean {
    const oldScale = replicasOf(rs);
    const desired = String(this.replicas);
    const max = String(this.replicas + maxSurge(this.spec));
    const a = rs.metadata.annotations ?? {};
    const sizeChanges = oldScale !== newScale;
    if (!sizeChanges && a[DESIRED_REPLICAS] === desired && a[MAX_REPLICAS] === max) return false;
    const copy: ReplicaSet = {
      ...rs,
      metadata: { ...rs.metadata, annotations: { ...a, [DESIRED_REPLICAS]: desired, [MAX_REPLICAS]: max } },
      spec: { ...rs.spec!, replicas: newScale },
    };
    this.replace(writeObj(this.sim, GVR.replicasets, copy));
    if (sizeChanges) {
      const op = oldScale < newScale ? 'up' : 'down';
      const msg = `Scaled ${op} replica set ${rs.metadata.name} from ${oldScale} to ${newScale}`;
      this.sim.event(this.d, 'Normal', 'ScalingReplicaSet', msg, COMPONENT);
    }
    return sizeChanges;
  }

  /** cleanupDeployment: old, empty ReplicaSets beyond revisionHistoryLimit go, lowest revision first. */
  protected cleanup(): void {
    const limit = this.spec.revisionHistoryLimit;
    if (typeof limit !== 'number') return;
    const alive = this.oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    const diff = alive.length - limit;
    if (diff <= 0) return;
    const byRevision = [...alive].sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b));
    for (const rs of byRevision.slice(0, diff)) {
      if (statusNum(rs, 'replicas') !== 0 || replicasOf(rs) !== 0) continue;
      if ((rs.metadata.generation ?? 0) > statusNum(rs, 'observedGeneration')) continue;
      deleteObj(this.sim, GVR.replicasets, rs);
    }
  }

  /** Writes the status, leaving out zero counts. */
  protected write(status: DeploymentStatus): void {
    omitZero(status, STATUS_COUNTS);
    this.d = writeStatus(this.sim, GVR.deployments, this.d, status);
  }
}
