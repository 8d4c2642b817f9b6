/**
 * The StatefulSet controller (pkg/controller/statefulset): Pods `<name>-0 … <name>-(n-1)`
 * with stable hostnames, created in order and each only once its predecessors run
 * and are ready (OrderedReady), or all at once (Parallel); scaled down from the
 * highest ordinal; PersistentVolumeClaims from volumeClaimTemplates; template
 * history in ControllerRevisions; RollingUpdate from the highest ordinal down to
 * the partition, one Pod at a time. Status carries replicas, readyReplicas,
 * availableReplicas, currentReplicas/updatedReplicas and currentRevision/updateRevision.
 */
import type { IStatefulSetSpec } from 'kubernetes-models/apps/v1/StatefulSetSpec';
import type { IStatefulSetStatus } from 'kubernetes-models/apps/v1/StatefulSetStatus';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { isPodAvailable, isPodReady, phaseOf, podFromTemplate, untilAvailable } from './pods.js';
import { syncRevisions, templateOf, truncateHistory } from './revisions.js';
import {
  GVR,
  keyOf,
  statusCode,
  type PersistentVolumeClaim,
  type Pod,
  type Sim,
  type StatefulSet,
} from './sim.js';
import { createObj, deleteObj, getObj, writeStatus } from './objects.js';
import { omitZero } from './values.js';
import { claimInNamespace } from './ownership.js';

export const STATEFULSET = 'statefulset';
const COMPONENT = 'statefulset-controller';
const REVISION_LABEL = 'controller-revision-hash';
const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';

const ordinalOf = (set: StatefulSet, pod: Pod): number | undefined => {
  const prefix = `${set.metadata.name}-`;
  const name = String(pod.metadata.name);
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
};

const runningAndReady = (pod: Pod) => phaseOf(pod) === 'Running' && isPodReady(pod);
const terminating = (pod: Pod) => Boolean(pod.metadata.deletionTimestamp);

export function reconcileStatefulSet(sim: Sim, namespace: string, name: string): void {
  const set = getObj(sim, GVR.statefulsets, namespace, name);
  // Being deleted: the garbage collector removes the Pods; no new revisions or Pods.
  if (!set || set.metadata.deletionTimestamp) return;
  const spec: Partial<IStatefulSetSpec> = set.spec ?? {};
  const status: Partial<IStatefulSetStatus> = set.status ?? {};
  const revisions = syncRevisions(sim, set, GVR.statefulsets);
  const update = revisions.update;
  const current = revisions.all.find((r) => r.metadata.name === status.currentRevision) ?? update;
  const pods = claimInNamespace(sim, GVR.pods, set).filter((p) => ordinalOf(set, p) !== undefined);
  const byOrdinal = new Map(pods.map((p) => [ordinalOf(set, p) as number, p]));
  const replicas = spec.replicas ?? 1;
  const start = spec.ordinals?.start ?? 0;
  const monotonic = (spec.podManagementPolicy ?? 'OrderedReady') !== 'Parallel';
  const rolling = (spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  const partition = rolling ? (spec.updateStrategy?.rollingUpdate?.partition ?? 0) : 0;

  const createPod = (ordinal: number) => {
    const revision = rolling && ordinal < start + partition ? current : update;
    const pod = newStatefulSetPod(sim, set, templateOf(revision), revision.metadata.name as string, ordinal);
    try {
      createObj(sim, GVR.pods, namespace, pod);
      const msg = `create Pod ${pod.metadata.name} in StatefulSet ${name} successful`;
      sim.event(set, 'Normal', 'SuccessfulCreate', msg, COMPONENT);
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
    }
  };
  const deletePod = (pod: Pod) => {
    deleteObj(sim, GVR.pods, pod);
    sim.event(
      set,
      'Normal',
      'SuccessfulDelete',
      `delete Pod ${pod.metadata.name} in StatefulSet ${name} successful`,
      COMPONENT,
    );
  };

  // One step of the update strategy per sync; OrderedReady stops at the first Pod that is not yet ready.
  const manage = (): void => {
    // Replicas: create missing and replace failed Pods, in order; OrderedReady waits for each to be ready.
    for (let ordinal = start; ordinal < start + replicas; ordinal++) {
      const pod = byOrdinal.get(ordinal);
      if (!pod) {
        createPod(ordinal);
        if (monotonic) return;
        continue;
      }
      if (phaseOf(pod) === 'Failed' || phaseOf(pod) === 'Succeeded') {
        if (!terminating(pod)) deletePod(pod);
        if (monotonic) return;
        continue;
      }
      if (monotonic && (terminating(pod) || !runningAndReady(pod))) return;
    }
    // Condemned Pods (ordinals beyond the replicas) go from the highest ordinal, one at a time when ordered.
    const condemned = [...byOrdinal.entries()]
      .filter(([o]) => o < start || o >= start + replicas)
      .sort((a, b) => b[0] - a[0])
      .map(([, p]) => p);
    for (const pod of condemned) {
      if (terminating(pod)) {
        if (monotonic) return;
        continue;
      }
      deletePod(pod);
      if (monotonic) return;
    }
    // Rolling update: the highest ordinal not at the update revision is replaced, one at a time.
    if (rolling) {
      for (let ordinal = start + replicas - 1; ordinal >= start + partition; ordinal--) {
        const pod = byOrdinal.get(ordinal);
        if (!pod) continue;
        if (pod.metadata.labels?.[REVISION_LABEL] !== update.metadata.name && !terminating(pod)) {
          deletePod(pod);
          break;
        }
        if (!runningAndReady(pod)) break;
      }
    }
  };
  manage();

  // Status from the Pods as they are now (a Pod deleted above is no longer counted).
  const live = claimInNamespace(sim, GVR.pods, set).filter((p) => ordinalOf(set, p) !== undefined);
  const now = sim.now();
  const minReadySeconds = spec.minReadySeconds ?? 0;
  const next: IStatefulSetStatus = {
    observedGeneration: set.metadata.generation,
    replicas: live.length,
    readyReplicas: live.filter(runningAndReady).length,
    currentReplicas: live.filter(
      (p) => !terminating(p) && p.metadata.labels?.[REVISION_LABEL] === current.metadata.name,
    ).length,
    updatedReplicas: live.filter(
      (p) => !terminating(p) && p.metadata.labels?.[REVISION_LABEL] === update.metadata.name,
    ).length,
    availableReplicas: live.filter((p) => runningAndReady(p) && isPodAvailable(p, minReadySeconds, now))
      .length,
    currentRevision: current.metadata.name,
    updateRevision: update.metadata.name,
    collisionCount: status.collisionCount ?? 0,
  };
  // completeRollingUpdate: once every Pod runs the update revision, it becomes the current one.
  if (rolling && next.updatedReplicas === next.replicas && next.readyReplicas === next.replicas) {
    next.currentReplicas = next.updatedReplicas;
    next.currentRevision = next.updateRevision;
  }
  if (status.conditions) next.conditions = status.conditions;
  omitZero(next, ['readyReplicas', 'currentReplicas', 'updatedReplicas']);
  writeStatus(sim, GVR.statefulsets, set, next);

  const inUse = new Set<string>([next.currentRevision as string, next.updateRevision as string]);
  for (const p of live) inUse.add(p.metadata.labels?.[REVISION_LABEL] as string);
  truncateHistory(sim, set, revisions.all, inUse);
  for (const p of live) {
    const wait = untilAvailable(p, minReadySeconds, now);
    if (wait !== undefined) sim.enqueue(keyOf(STATEFULSET, namespace, name), wait);
  }
}

/** One of spec.volumeClaimTemplates. */
type ClaimTemplate = NonNullable<IStatefulSetSpec['volumeClaimTemplates']>[number];

/** newStatefulSetPod: identity (name, hostname, subdomain, labels), storage claims, revision label. */
function newStatefulSetPod(
  sim: Sim,
  set: StatefulSet,
  template: IPodTemplateSpec,
  revision: string,
  ordinal: number,
): Pod {
  const name = `${set.metadata.name}-${ordinal}`;
  const pod = podFromTemplate(
    template,
    set,
    { name },
    { [REVISION_LABEL]: revision, [POD_NAME_LABEL]: name, [POD_INDEX_LABEL]: String(ordinal) },
  );
  const spec = pod.spec!;
  const setSpec = set.spec!;
  spec.hostname = name;
  if (setSpec.serviceName) spec.subdomain = setSpec.serviceName;
  const claims = setSpec.volumeClaimTemplates ?? [];
  if (claims.length) {
    const volumes = (spec.volumes ?? []).filter((v) => !claims.some((c) => c.metadata?.name === v.name));
    for (const claimTemplate of claims) {
      const claimName = `${claimTemplate.metadata?.name}-${name}`;
      ensureClaim(sim, set, claimTemplate, claimName, name);
      volumes.push({ name: claimTemplate.metadata?.name as string, persistentVolumeClaim: { claimName } });
    }
    spec.volumes = volumes;
  }
  return pod;
}

/** createPersistentVolumeClaims: `<template>-<set>-<ordinal>`, labelled with the set's selector, never owned (Retain). */
function ensureClaim(
  sim: Sim,
  set: StatefulSet,
  template: ClaimTemplate,
  claimName: string,
  podName: string,
): void {
  const ns = set.metadata.namespace as string;
  if (getObj(sim, GVR.pvcs, ns, claimName)) return;
  const labels = {
    ...(template.metadata?.labels ?? {}),
    ...(set.spec!.selector?.matchLabels ?? {}),
  };
  const claim: PersistentVolumeClaim = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName,
      namespace: ns,
      ...(Object.keys(labels).length ? { labels } : {}),
      ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
    },
    spec: { ...(template.spec ?? {}) },
  };
  const policy = set.spec!.persistentVolumeClaimRetentionPolicy?.whenDeleted;
  if (policy === 'Delete') {
    claim.metadata.ownerReferences = [
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        name: set.metadata.name as string,
        uid: set.metadata.uid as string,
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
  }
  try {
    createObj(sim, GVR.pvcs, ns, claim);
    const msg = `create Claim ${claimName} Pod ${podName} in StatefulSet ${set.metadata.name} success`;
    sim.event(set, 'Normal', 'SuccessfulCreate', msg, COMPONENT);
  } catch (err) {
    if (statusCode(err) !== 409) throw err;
  }
}
