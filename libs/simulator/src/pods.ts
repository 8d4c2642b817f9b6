/** Pod helpers shared by the simulated controllers (pkg/controller/controller_utils.go, pkg/api/v1/pod). */
import { deepCopy, type StoredObject } from '#kube-core';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import type { Pod } from './sim.js';
import { findCondition, parseTime, type Condition } from './values.js';
import { controllerRef } from './ownership.js';

export const phaseOf = (pod: Pod): string => pod.status?.phase ?? 'Pending';
/** The conditions of an object's status (a Pod's, a workload's, ...). */
export const conditionsOf = (obj: { status?: { conditions?: object[] } }) =>
  obj.status?.conditions as Condition[] | undefined;

/** controller.IsPodActive: not finished and not being deleted. */
export const isPodActive = (pod: Pod) =>
  phaseOf(pod) !== 'Succeeded' && phaseOf(pod) !== 'Failed' && !pod.metadata.deletionTimestamp;

export const isPodReady = (pod: Pod) => findCondition(conditionsOf(pod), 'Ready')?.status === 'True';

export const readySince = (pod: Pod) =>
  parseTime(findCondition(conditionsOf(pod), 'Ready')?.lastTransitionTime);

/** podutil.IsPodAvailable: ready for at least minReadySeconds. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (!minReadySeconds) return true;
  const since = readySince(pod);
  return since !== undefined && since + minReadySeconds * 1000 <= now;
}

/** Milliseconds until a ready pod becomes available (undefined when it is or cannot). */
export function untilAvailable(pod: Pod, minReadySeconds: number, now: number): number | undefined {
  if (!minReadySeconds || !isPodReady(pod)) return undefined;
  const since = readySince(pod);
  if (since === undefined) return undefined;
  const wait = since + minReadySeconds * 1000 - now;
  return wait > 0 ? wait + 10 : undefined;
}

/** controller.GetPodFromTemplate: labels, annotations and finalizers from the template, a controller reference. */
export function podFromTemplate(
  template: IPodTemplateSpec | undefined,
  owner: StoredObject,
  naming: { name?: string; generateName?: string },
  extraLabels: Record<string, string> = {},
  extraAnnotations: Record<string, string> = {},
): Pod {
  const t = deepCopy(template ?? {});
  const meta = t.metadata ?? {};
  const labels = { ...(meta.labels ?? {}), ...extraLabels };
  const annotations = { ...(meta.annotations ?? {}), ...extraAnnotations };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(naming.name ? { name: naming.name } : { generateName: naming.generateName }),
      namespace: owner.metadata.namespace,
      ...(Object.keys(labels).length ? { labels } : {}),
      ...(Object.keys(annotations).length ? { annotations } : {}),
      ...(meta.finalizers?.length ? { finalizers: meta.finalizers } : {}),
      ownerReferences: [controllerRef(owner)],
    },
    // A template without a spec makes a Pod without one, which the API server refuses.
    spec: t.spec ?? ({} as IPodSpec),
  };
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const restarts = (pod: Pod) =>
  (pod.status?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0);
const deletionCost = (pod: Pod) =>
  Number(pod.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost'] ?? 0) || 0;

/** controller.ActivePods ordering: the pods to delete first sort first. */
export function comparePodsForDeletion(a: Pod, b: Pod): number {
  const assigned = (p: Pod) => (p.spec?.nodeName ? 1 : 0);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const phase = (p: Pod) => PHASE_RANK[phaseOf(p)] ?? 1;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Pod) => (isPodReady(p) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  if (deletionCost(a) !== deletionCost(b)) return deletionCost(a) - deletionCost(b);
  if (ready(a) && ready(b)) {
    const diff = (readySince(b) ?? 0) - (readySince(a) ?? 0);
    if (diff) return diff;
  }
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  return (
    (parseTime(b.metadata.creationTimestamp) ?? 0) - (parseTime(a.metadata.creationTimestamp) ?? 0) ||
    String(b.metadata.name).localeCompare(String(a.metadata.name))
  );
}
