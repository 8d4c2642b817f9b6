/**
 * The Deployment controller (pkg/controller/deployment): one ReplicaSet per pod
 * template, named `<deployment>-<pod-template-hash>`, with the hash label in its
 * selector, template and labels, a controller reference, and the revision,
 * desired-replicas and max-replicas annotations. A template change creates a
 * new ReplicaSet and rolls over (RollingUpdate with maxSurge/maxUnavailable, or
 * Recreate); a replicas change scales proportionally; old ReplicaSets beyond
 * revisionHistoryLimit are deleted. Status and the Available/Progressing
 * conditions follow sync.go/progress.go, including their reasons and messages.
 */
import type { KubeObj } from '../store/types.js';
import { computeHash } from './hash.js';
import { isPodActive } from './pods.js';
import {
  GVR,
  claim,
  clone,
  controllerOf,
  controllerRef,
  deleteObj,
  findCondition,
  getObj,
  isControlledBy,
  keyOf,
  listObjs,
  omitZero,
  parseTime,
  sameJson,
  scaledValue,
  semantic,
  statusCode,
  timestamp,
  writeObj,
  writeStatus,
  type Condition,
  type LabelSelector,
  type Obj,
  type Sim,
} from './runtime.js';

export const DEPLOYMENT = 'deployment';
const COMPONENT = 'deployment-controller';

export const HASH_LABEL = 'pod-template-hash';
export const REVISION = 'deployment.kubernetes.io/revision';
const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
const SKIP_COPY = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'deprecated.deployment.rollback.to',
]);
const REV_HISTORY_LIMIT_CHARS = 2000;

// Condition reasons (pkg/controller/deployment/util).
const NEW_RS_CREATED = 'NewReplicaSetCreated';
const FOUND_NEW_RS = 'FoundNewReplicaSet';
const RS_UPDATED = 'ReplicaSetUpdated';
const NEW_RS_AVAILABLE = 'NewReplicaSetAvailable';
const TIMED_OUT = 'ProgressDeadlineExceeded';
const PAUSED = 'DeploymentPaused';
const RESUMED = 'DeploymentResumed';

const replicasOf = (obj: KubeObj | undefined) => ((obj?.spec as Obj | undefined)?.replicas as number) ?? 0;
const statusNum = (obj: KubeObj | undefined, key: string) =>
  ((obj?.status as Obj | undefined)?.[key] as number | undefined) ?? 0;
const sum = (list: KubeObj[], f: (o: KubeObj) => number) => list.reduce((n, o) => n + f(o), 0);
const revisionOf = (rs: KubeObj) => {
  const n = Number(rs.metadata.annotations?.[REVISION]);
  return Number.isInteger(n) ? n : 0;
};
const created = (o: KubeObj) => parseTime(o.metadata.creationTimestamp) ?? 0;
const byCreation = (a: KubeObj, b: KubeObj) =>
  created(a) - created(b) || String(a.metadata.name).localeCompare(String(b.metadata.name));

/** EqualIgnoreHash: the templates are the same apart from the pod-template-hash label. */
export function equalIgnoreHash(a: unknown, b: unknown): boolean {
  const strip = (t: unknown) => {
    const copy = clone((t ?? {}) as Obj);
    if (copy.metadata?.labels) delete copy.metadata.labels[HASH_LABEL];
    return semantic(copy);
  };
  return sameJson(strip(a), strip(b));
}

function newCondition(
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
function setCondition(status: Obj, condition: Condition): void {
  const conditions = (status.conditions ?? []) as Condition[];
  const current = findCondition(conditions, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  if (current && current.status === condition.status)
    condition.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...conditions.filter((c) => c.type !== condition.type), condition];
}

function removeCondition(status: Obj, type: string): void {
  const rest = ((status.conditions ?? []) as Condition[]).filter((c) => c.type !== type);
  if (rest.length) status.conditions = rest;
  else delete status.conditions;
}

export function reconcileDeployment(sim: Sim, namespace: string, name: string): void {
  const d = getObj(sim, GVR.deployments, namespace, name);
  if (!d) return;
  new DeploymentSync(sim, d).run();
}

class DeploymentSync {
  private readonly spec: Obj;
  /** The status as stored when the sync started (progress is measured against it). */
  private readonly base: Obj;
  /** The status being built: conditions and collisionCount change along the way. */
  private readonly work: Obj;
  private rsList: KubeObj[] = [];
  private newRS?: KubeObj;
  private oldRSs: KubeObj[] = [];

  constructor(
    private readonly sim: Sim,
    private d: KubeObj,
  ) {
    this.spec = (d.spec ?? {}) as Obj;
    this.base = clone((d.status ?? {}) as Obj);
    this.work = clone(this.base);
  }

  private get replicas(): number {
    return (this.spec.replicas as number | undefined) ?? 1;
  }

  private get rolling(): boolean {
    return (this.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  }

  /** ResolveFenceposts: maxSurge rounds up, maxUnavailable down, and both zero means one unavailable. */
  private fenceposts(): { surge: number; unavailable: number } {
    const r = (this.spec.strategy?.rollingUpdate ?? {}) as Obj;
    const surge = scaledValue(r.maxSurge ?? '25%', this.replicas, true);
    let unavailable = scaledValue(r.maxUnavailable ?? '25%', this.replicas, false);
    if (surge === 0 && unavailable === 0) unavailable = 1;
    return { surge, unavailable };
  }

  private maxSurge(): number {
    return this.rolling ? this.fenceposts().surge : 0;
  }

  private maxUnavailable(): number {
    if (!this.rolling || this.replicas === 0) return 0;
    return Math.min(this.fenceposts().unavailable, this.replicas);
  }

  private get hasProgressDeadline(): boolean {
    const s = this.spec.progressDeadlineSeconds;
    return typeof s === 'number' && s !== 2147483647;
  }

  run(): void {
    const all = listObjs(this.sim, GVR.replicasets, this.d.metadata.namespace as string);
    this.rsList = claim(this.sim, GVR.replicasets, this.d, all).sort(byCreation);
    if (this.d.metadata.deletionTimestamp) {
      this.resolveReplicaSets(false);
      return this.syncStatus();
    }
    this.checkPausedConditions();
    if (this.spec.paused) return this.syncScaling();
    this.resolveReplicaSets(false);
    if (this.isScalingEvent()) return this.syncScaling();
    if (this.spec.strategy?.type === 'Recreate') return this.rolloutRecreate();
    return this.rolloutRolling();
  }

  // ------------------------------------------------------------ replica sets

  /** getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created if asked), the old ones, revisions in step. */
  private resolveReplicaSets(createIfNotExisted: boolean): void {
    const template = this.spec.template;
    const existing = this.rsList.find((rs) => equalIgnoreHash((rs.spec as Obj)?.template, template));
    this.oldRSs = this.rsList.filter((rs) => rs !== existing);
    const newRevision = Math.max(0, ...this.oldRSs.map(revisionOf)) + 1;
    if (existing) {
      let rs = existing;
      const copy = clone(existing);
      const changed = this.setNewReplicaSetAnnotations(copy, String(newRevision), true);
      const minReady = this.spec.minReadySeconds ?? 0;
      if (changed || ((copy.spec as Obj).minReadySeconds ?? 0) !== minReady) {
        if (minReady) (copy.spec as Obj).minReadySeconds = minReady;
        else delete (copy.spec as Obj).minReadySeconds;
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

  private createNewReplicaSet(newRevision: string): void {
    const d = this.d;
    const hash = computeHash(semantic(this.spec.template), this.work.collisionCount as number | undefined);
    const template = clone((this.spec.template ?? {}) as Obj);
    template.metadata ??= {};
    template.metadata.labels = { ...(template.metadata.labels ?? {}), [HASH_LABEL]: hash };
    const selector = clone((this.spec.selector ?? {}) as LabelSelector);
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [HASH_LABEL]: hash };
    const rs: KubeObj = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: template.metadata.labels,
        ownerReferences: [controllerRef(d)],
      },
      spec: {
        replicas: 0,
        ...(this.spec.minReadySeconds ? { minReadySeconds: this.spec.minReadySeconds } : {}),
        selector,
        template,
      },
    };
    const replicas = this.newRSNewReplicas([...this.oldRSs, rs], rs);
    (rs.spec as Obj).replicas = replicas;
    this.setNewReplicaSetAnnotations(rs, newRevision, false);
    let createdRS: KubeObj;
    let alreadyExisted = false;
    try {
      createdRS = this.sim.api.create(GVR.replicasets, d.metadata.namespace, rs);
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
        isControlledBy(found, d) &&
        equalIgnoreHash((found.spec as Obj).template, this.spec.template)
      ) {
        createdRS = found;
        alreadyExisted = true;
      } else {
        // A hash collision with a ReplicaSet that is not ours: bump collisionCount and try again.
        this.work.collisionCount = ((this.work.collisionCount as number | undefined) ?? 0) + 1;
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

  /** SetNewReplicaSetAnnotations: copy the deployment's annotations, keep the revision highest, remember rollbacks. */
  private setNewReplicaSetAnnotations(rs: KubeObj, newRevision: string, exists: boolean): boolean {
    let changed = false;
    const annotations = { ...(rs.metadata.annotations ?? {}) };
    for (const [k, v] of Object.entries(this.d.metadata.annotations ?? {})) {
      if (SKIP_COPY.has(k) || annotations[k] === v) continue;
      annotations[k] = v;
      changed = true;
    }
    const oldRevision = annotations[REVISION];
    const oldInt = oldRevision === undefined ? 0 : Number(oldRevision);
    if (Number.isNaN(oldInt)) return false;
    const newInt = Number(newRevision);
    if (oldInt < newInt) {
      annotations[REVISION] = newRevision;
      changed = true;
      if (oldRevision !== undefined) {
        const history = annotations[REVISION_HISTORY];
        let list = history ? history.split(',') : [];
        let total = (history?.length ?? 0) + oldRevision.length + 1;
        while (total > REV_HISTORY_LIMIT_CHARS && list.length) total -= list.shift()!.length + 1;
        list = [...list, oldRevision];
        annotations[REVISION_HISTORY] = list.join(',');
      }
    }
    if (!exists) {
      annotations[DESIRED_REPLICAS] = String(this.replicas);
      annotations[MAX_REPLICAS] = String(this.replicas + this.maxSurge());
      changed = true;
    }
    rs.metadata.annotations = annotations;
    return changed;
  }

  /** The deployment carries its newest revision as an annotation (a metadata-only write). */
  private setDeploymentRevision(revision: string): void {
    if (this.d.metadata.annotations?.[REVISION] === revision) return;
    const copy = clone(this.d);
    copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [REVISION]: revision };
    delete copy.status;
    this.d = writeObj(this.sim, GVR.deployments, copy);
  }

  private replace(rs: KubeObj): KubeObj {
    this.rsList = this.rsList.map((r) => (r.metadata.uid === rs.metadata.uid ? rs : r));
    this.oldRSs = this.oldRSs.map((r) => (r.metadata.uid === rs.metadata.uid ? rs : r));
    if (this.newRS?.metadata.uid === rs.metadata.uid) this.newRS = rs;
    return rs;
  }

  private allRSs(): KubeObj[] {
    return this.newRS ? [...this.oldRSs, this.newRS] : [...this.oldRSs];
  }

  /** scaleReplicaSet: sets replicas and the desired/max annotations; records ScalingReplicaSet. */
  private scaleReplicaSet(rs: KubeObj, newScale: number): boolean {
    const oldScale = replicasOf(rs);
    const desired = String(this.replicas);
    const max = String(this.replicas + this.maxSurge());
    const a = rs.metadata.annotations ?? {};
    const sizeChanges = oldScale !== newScale;
    if (!sizeChanges && a[DESIRED_REPLICAS] === desired && a[MAX_REPLICAS] === max) return false;
    const copy = clone(rs);
    (copy.spec as Obj).replicas = newScale;
    copy.metadata.annotations = { ...a, [DESIRED_REPLICAS]: desired, [MAX_REPLICAS]: max };
    this.replace(writeObj(this.sim, GVR.replicasets, copy));
    if (sizeChanges) {
      const op = oldScale < newScale ? 'up' : 'down';
      const msg = `Scaled ${op} replica set ${rs.metadata.name} from ${oldScale} to ${newScale}`;
      this.sim.event(this.d, 'Normal', 'ScalingReplicaSet', msg, COMPONENT);
    }
    return sizeChanges;
  }

  // ------------------------------------------------------------ strategies

  /** NewRSNewReplicas: how far the new ReplicaSet may grow right now. */
  private newRSNewReplicas(all: KubeObj[], newRS: KubeObj): number {
    if (!this.rolling) return this.replicas;
    const current = sum(all, replicasOf);
    const maxTotal = this.replicas + this.maxSurge();
    if (current >= maxTotal) return replicasOf(newRS);
    const up = Math.min(maxTotal - current, Math.max(0, this.replicas - replicasOf(newRS)));
    return replicasOf(newRS) + up;
  }

  private rolloutRolling(): void {
    if (!this.newRS) this.resolveReplicaSets(true);
    const newRS = this.newRS as KubeObj;
    if (this.reconcileNewReplicaSet(newRS)) return this.syncRolloutStatus();
    if (this.reconcileOldReplicaSets()) return this.syncRolloutStatus();
    if (this.deploymentComplete(this.base)) this.cleanup();
    this.syncRolloutStatus();
  }

  private reconcileNewReplicaSet(newRS: KubeObj): boolean {
    if (replicasOf(newRS) === this.replicas) return false;
    if (replicasOf(newRS) > this.replicas) return this.scaleReplicaSet(newRS, this.replicas);
    return this.scaleReplicaSet(newRS, this.newRSNewReplicas(this.allRSs(), newRS));
  }

  private reconcileOldReplicaSets(): boolean {
    const newRS = this.newRS as KubeObj;
    const activeOld = this.oldRSs.filter((rs) => replicasOf(rs) > 0);
    if (sum(activeOld, replicasOf) === 0) return false;
    const allPods = sum(this.allRSs(), replicasOf);
    const minAvailable = this.replicas - this.maxUnavailable();
    const newUnavailable = replicasOf(newRS) - statusNum(newRS, 'availableReplicas');
    const maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    let scaledDown = 0;
    // cleanupUnhealthyReplicas: unavailable old pods go first, whatever the availability budget.
    for (const rs of [...activeOld].sort(byCreation)) {
      if (scaledDown >= maxScaledDown) break;
      const live = this.oldRSs.find((r) => r.metadata.uid === rs.metadata.uid) as KubeObj;
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
    this.scaleReplicaSet(this.newRS as KubeObj, this.replicas);
    if (this.deploymentComplete(this.base)) this.cleanup();
    this.syncRolloutStatus();
  }

  /** Recreate waits until no pod of an old ReplicaSet is Pending, Running or Unknown. */
  private oldPodsRunning(): boolean {
    if (sum(this.oldRSs, (rs) => statusNum(rs, 'replicas')) > 0) return true;
    const oldUids = new Set(this.oldRSs.map((rs) => rs.metadata.uid));
    return listObjs(this.sim, GVR.pods, this.d.metadata.namespace as string).some(
      (p) => oldUids.has(controllerOf(p)?.uid) && isPodActive(p),
    );
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
    let activeOrLatest: KubeObj | undefined;
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
    const allowed = this.replicas > 0 ? this.replicas + this.maxSurge() : 0;
    const toAdd = allowed - sum(active, replicasOf);
    const ordered = [...active].sort((a, b) => {
      const size = replicasOf(b) - replicasOf(a);
      if (size) return size;
      return toAdd > 0 ? byCreation(b, a) : byCreation(a, b);
    });
    const sizes = new Map<KubeObj, number>();
    let added = 0;
    for (const rs of ordered) {
      const p = toAdd !== 0 ? this.proportion(rs, toAdd, added) : 0;
      sizes.set(rs, replicasOf(rs) + p);
      added += p;
    }
    ordered.forEach((rs, i) => {
      let size = sizes.get(rs) as number;
      if (i === 0 && toAdd !== 0) size = Math.max(0, size + toAdd - added);
      this.scaleReplicaSet(rs, size);
    });
  }

  private proportion(rs: KubeObj, toAdd: number, added: number): number {
    if (replicasOf(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
    let fraction: number;
    if (this.replicas === 0) fraction = -replicasOf(rs);
    else {
      let before = Number(rs.metadata.annotations?.[MAX_REPLICAS] ?? 0) || 0;
      if (!before) before = statusNum(this.d, 'replicas');
      fraction = before
        ? Math.round((replicasOf(rs) * (this.replicas + this.maxSurge())) / before) - replicasOf(rs)
        : 0;
    }
    const allowed = toAdd - added;
    return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
  }

  /** cleanupDeployment: old, empty ReplicaSets beyond revisionHistoryLimit go, lowest revision first. */
  private cleanup(): void {
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

  // ------------------------------------------------------------ status

  /** checkPausedConditions: Progressing becomes Unknown/DeploymentPaused (or DeploymentResumed). */
  private checkPausedConditions(): void {
    if (!this.hasProgressDeadline) return;
    const cond = findCondition(this.work.conditions, 'Progressing');
    if (cond?.reason === TIMED_OUT) return;
    const pausedExists = cond?.reason === PAUSED;
    const now = this.sim.now();
    if (this.spec.paused && !pausedExists)
      setCondition(this.work, newCondition('Progressing', 'Unknown', PAUSED, 'Deployment is paused', now));
    else if (!this.spec.paused && pausedExists)
      setCondition(this.work, newCondition('Progressing', 'Unknown', RESUMED, 'Deployment is resumed', now));
  }

  /** calculateStatus: counts from the ReplicaSets, and the Available condition. */
  private calculateStatus(): Obj {
    const all = this.allRSs();
    const available = sum(all, (rs) => statusNum(rs, 'availableReplicas'));
    const status: Obj = {
      observedGeneration: this.d.metadata.generation,
      replicas: sum(all, (rs) => statusNum(rs, 'replicas')),
      updatedReplicas: statusNum(this.newRS, 'replicas'),
      readyReplicas: sum(all, (rs) => statusNum(rs, 'readyReplicas')),
      availableReplicas: available,
      unavailableReplicas: Math.max(0, sum(all, replicasOf) - available),
      ...(this.work.conditions ? { conditions: clone(this.work.conditions) } : {}),
      ...(this.work.collisionCount !== undefined ? { collisionCount: this.work.collisionCount } : {}),
    };
    const now = this.sim.now();
    if (available >= this.replicas - this.maxUnavailable()) {
      const msg = 'Deployment has minimum availability.';
      setCondition(status, newCondition('Available', 'True', 'MinimumReplicasAvailable', msg, now));
    } else {
      const msg = 'Deployment does not have minimum availability.';
      setCondition(status, newCondition('Available', 'False', 'MinimumReplicasUnavailable', msg, now));
    }
    return status;
  }

  private deploymentComplete(status: Obj): boolean {
    const r = this.replicas;
    return (
      (status.updatedReplicas ?? 0) === r &&
      (status.replicas ?? 0) === r &&
      (status.availableReplicas ?? 0) === r &&
      (status.observedGeneration ?? 0) >= (this.d.metadata.generation ?? 0)
    );
  }

  /** syncDeploymentStatus: status without progress estimation (scaling, paused, deleting). */
  private syncStatus(): void {
    this.write(this.calculateStatus());
  }

  /** syncRolloutStatus: status plus the Progressing condition, and a wake-up for the progress deadline. */
  private syncRolloutStatus(): void {
    const status = this.calculateStatus();
    const now = this.sim.now();
    if (!this.hasProgressDeadline) removeCondition(status, 'Progressing');
    const current = findCondition(this.work.conditions, 'Progressing');
    const complete = status.replicas === status.updatedReplicas && current?.reason === NEW_RS_AVAILABLE;
    const rsName = this.newRS?.metadata.name;
    if (this.hasProgressDeadline && !complete) {
      if (this.deploymentComplete(status)) {
        const msg = rsName
          ? `ReplicaSet "${rsName}" has successfully progressed.`
          : `Deployment "${this.d.metadata.name}" has successfully progressed.`;
        setCondition(status, newCondition('Progressing', 'True', NEW_RS_AVAILABLE, msg, now));
      } else if (this.progressing(status)) {
        const msg = rsName
          ? `ReplicaSet "${rsName}" is progressing.`
          : `Deployment "${this.d.metadata.name}" is progressing.`;
        const cond = newCondition('Progressing', 'True', RS_UPDATED, msg, now);
        if (current?.status === 'True') cond.lastTransitionTime = current.lastTransitionTime;
        removeCondition(status, 'Progressing');
        setCondition(status, cond);
      } else if (this.timedOut(status, now)) {
        const msg = rsName
          ? `ReplicaSet "${rsName}" has timed out progressing.`
          : `Deployment "${this.d.metadata.name}" has timed out progressing.`;
        setCondition(status, newCondition('Progressing', 'False', TIMED_OUT, msg, now));
      }
    }
    // Failure conditions of the ReplicaSets surface as ReplicaFailure on the deployment.
    const failure = this.allRSs()
      .map((rs) => findCondition((rs.status as Obj | undefined)?.conditions, 'ReplicaFailure'))
      .find((c) => c?.status === 'True');
    if (failure) {
      setCondition(
        status,
        newCondition('ReplicaFailure', 'True', failure.reason ?? '', failure.message ?? '', now),
      );
    } else removeCondition(status, 'ReplicaFailure');
    this.write(status);
    this.requeueStuck(status, now);
  }

  private progressing(status: Obj): boolean {
    const oldOld = (this.base.replicas ?? 0) - (this.base.updatedReplicas ?? 0);
    const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
    return (
      (status.updatedReplicas ?? 0) > (this.base.updatedReplicas ?? 0) ||
      newOld < oldOld ||
      (status.readyReplicas ?? 0) > (this.base.readyReplicas ?? 0) ||
      (status.availableReplicas ?? 0) > (this.base.availableReplicas ?? 0)
    );
  }

  private timedOut(status: Obj, now: number): boolean {
    if (!this.hasProgressDeadline) return false;
    const cond = findCondition(status.conditions, 'Progressing');
    if (!cond) return false;
    if (cond.reason === NEW_RS_AVAILABLE) return false;
    if (cond.reason === TIMED_OUT) return true;
    const from = parseTime(cond.lastUpdateTime);
    return from !== undefined && from + (this.spec.progressDeadlineSeconds as number) * 1000 < now;
  }

  /** requeueStuckDeployment: wake up when the progress deadline would pass. */
  private requeueStuck(status: Obj, now: number): void {
    const cond = findCondition(status.conditions, 'Progressing');
    if (!this.hasProgressDeadline || !cond || cond.status !== 'True') return;
    if (cond.reason === NEW_RS_AVAILABLE || this.deploymentComplete(status)) return;
    const from = parseTime(cond.lastUpdateTime);
    if (from === undefined) return;
    const wait = from + (this.spec.progressDeadlineSeconds as number) * 1000 - now + 1000;
    const { namespace, name } = this.d.metadata;
    this.sim.enqueue(keyOf(DEPLOYMENT, namespace as string, name as string), Math.max(wait, 1000));
  }

  private write(status: Obj): void {
    omitZero(status, [
      'replicas',
      'updatedReplicas',
      'readyReplicas',
      'availableReplicas',
      'unavailableReplicas',
    ]);
    this.d = writeStatus(this.sim, GVR.deployments, this.d, status);
  }
}
