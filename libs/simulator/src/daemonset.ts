/**
 * The DaemonSet controller (pkg/controller/daemon) for the one simulated node:
 * one Pod `<ds>-<5 random chars>` pinned to the node by required node affinity,
 * with the daemon tolerations, `controller-revision-hash` and
 * `pod-template-generation` labels; RollingUpdate replaces a Pod of an old
 * template; status reports desired/current/ready/available/updated for one node.
 */
import { deepCopy } from '#kube-core';
import type { IDaemonSetSpec } from 'kubernetes-models/apps/v1/DaemonSetSpec';
import type { IDaemonSetStatus } from 'kubernetes-models/apps/v1/DaemonSetStatus';
import type { IAffinity } from 'kubernetes-models/v1/Affinity';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IToleration } from 'kubernetes-models/v1/Toleration';
import { fitsNode, type NodeInfo } from './kubelet.js';
import { isPodActive, isPodAvailable, isPodReady, phaseOf, podFromTemplate, untilAvailable } from './pods.js';
import { syncRevisions, truncateHistory } from './revisions.js';
import { GVR, keyOf, type Pod, type Sim } from './sim.js';
import { createObj, deleteObj, getObj, writeStatus } from './objects.js';
import { omitZero, parseTime } from './values.js';
import { claimInNamespace } from './ownership.js';

export const DAEMONSET = 'daemonset';
const COMPONENT = 'daemonset-controller';
const REVISION_LABEL = 'controller-revision-hash';
const GENERATION_LABEL = 'pod-template-generation';

const toleration = (key: string, effect: IToleration['effect']): IToleration => ({
  key,
  operator: 'Exists',
  effect,
});

/** AddOrUpdateDaemonPodTolerations. */
function daemonTolerations(spec: IPodSpec): IToleration[] {
  const wanted = [
    toleration('node.kubernetes.io/not-ready', 'NoExecute'),
    toleration('node.kubernetes.io/unreachable', 'NoExecute'),
    toleration('node.kubernetes.io/disk-pressure', 'NoSchedule'),
    toleration('node.kubernetes.io/memory-pressure', 'NoSchedule'),
    toleration('node.kubernetes.io/pid-pressure', 'NoSchedule'),
    toleration('node.kubernetes.io/unschedulable', 'NoSchedule'),
    ...(spec.hostNetwork ? [toleration('node.kubernetes.io/network-unavailable', 'NoSchedule')] : []),
  ];
  const existing = spec.tolerations ?? [];
  const missing = wanted.filter((w) => !existing.some((e) => e.key === w.key && e.effect === w.effect));
  return [...existing, ...missing];
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: require exactly this node, by metadata.name. */
function pinToNode(spec: IPodSpec, node: string): void {
  const affinity: IAffinity = deepCopy(spec.affinity ?? {});
  affinity.nodeAffinity ??= {};
  affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution = {
    nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
  };
  spec.affinity = affinity;
}

export function reconcileDaemonSet(sim: Sim, node: NodeInfo, namespace: string, name: string): void {
  const ds = getObj(sim, GVR.daemonsets, namespace, name);
  // Being deleted: the garbage collector removes the Pods; no new revisions or Pods.
  if (!ds || ds.metadata.deletionTimestamp) return;
  const spec: Partial<IDaemonSetSpec> = ds.spec ?? {};
  const revisions = syncRevisions(sim, ds, GVR.daemonsets);
  const hash = revisions.hash;
  const pods = claimInNamespace(sim, GVR.pods, ds);
  const shouldRun = fitsNode(spec.template?.spec ?? {}, node);
  const deletePod = (pod: Pod) => {
    deleteObj(sim, GVR.pods, pod);
    sim.event(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, COMPONENT);
  };

  // Failed daemon pods are deleted so that a fresh one replaces them.
  for (const pod of pods.filter((p) => phaseOf(p) === 'Failed' && !p.metadata.deletionTimestamp)) {
    deletePod(pod);
    sim.event(
      ds,
      'Warning',
      'FailedDaemonPod',
      `Found failed daemon pod ${namespace}/${pod.metadata.name} on node ${node.name}, will try to kill it`,
      COMPONENT,
    );
  }
  const active = pods.filter(isPodActive);
  if (!shouldRun) active.forEach(deletePod);
  else if (active.length > 1) {
    const oldestFirst = [...active].sort(
      (a, b) =>
        (parseTime(a.metadata.creationTimestamp) ?? 0) - (parseTime(b.metadata.creationTimestamp) ?? 0),
    );
    oldestFirst.slice(1).forEach(deletePod);
  } else if (active.length === 0 && !pods.some((p) => p.metadata.deletionTimestamp)) {
    const pod = podFromTemplate(
      spec.template,
      ds,
      { generateName: `${name}-` },
      { [REVISION_LABEL]: hash, [GENERATION_LABEL]: String(ds.metadata.generation ?? 1) },
    );
    const podSpec = pod.spec!;
    pinToNode(podSpec, node.name);
    podSpec.tolerations = daemonTolerations(podSpec);
    const created = createObj(sim, GVR.pods, namespace, pod);
    sim.event(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, COMPONENT);
  } else if ((spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
    // maxUnavailable ≥ 1 on one node: an old-template pod is replaced (delete, then the next sync creates).
    const old = active.find((p) => p.metadata.labels?.[REVISION_LABEL] !== hash);
    if (old) deletePod(old);
  }

  const live = claimInNamespace(sim, GVR.pods, ds).filter(isPodActive);
  const now = sim.now();
  const minReadySeconds = spec.minReadySeconds ?? 0;
  const scheduled = live.length > 0 ? 1 : 0;
  const desired = shouldRun ? 1 : 0;
  const available = shouldRun ? live.filter((p) => isPodAvailable(p, minReadySeconds, now)).length : 0;
  const status: IDaemonSetStatus = {
    currentNumberScheduled: shouldRun ? scheduled : 0,
    numberMisscheduled: shouldRun ? 0 : scheduled,
    desiredNumberScheduled: desired,
    numberReady: shouldRun ? Math.min(1, live.filter(isPodReady).length) : 0,
    observedGeneration: ds.metadata.generation,
    updatedNumberScheduled: shouldRun
      ? Math.min(1, live.filter((p) => p.metadata.labels?.[REVISION_LABEL] === hash).length)
      : 0,
    numberAvailable: Math.min(1, available),
    numberUnavailable: Math.max(0, desired - Math.min(1, available)),
  };
  omitZero(status, ['updatedNumberScheduled', 'numberAvailable', 'numberUnavailable']);
  writeStatus(sim, GVR.daemonsets, ds, status);

  const inUse = new Set<string>([revisions.update.metadata.name as string]);
  for (const r of revisions.all) {
    if (
      live.some(
        (p) => p.metadata.labels?.[REVISION_LABEL] === r.metadata.labels?.['controller.kubernetes.io/hash'],
      )
    )
      inUse.add(r.metadata.name as string);
  }
  truncateHistory(sim, ds, revisions.all, inUse);
  for (const p of live) {
    const wait = untilAvailable(p, minReadySeconds, now);
    if (wait !== undefined) sim.enqueue(keyOf(DAEMONSET, namespace, name), wait);
  }
}
