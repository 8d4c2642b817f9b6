/**
 * The ReplicaSet controller (pkg/controller/replicaset): creates Pods named
 * `<rs>-<5 random chars>` from the template until `spec.replicas` are active,
 * deletes the least useful ones when there are too many, and reports
 * replicas/fullyLabeledReplicas/readyReplicas/availableReplicas/observedGeneration.
 */
import {
  comparePodsForDeletion,
  conditionsOf,
  isPodActive,
  isPodAvailable,
  isPodReady,
  podFromTemplate,
  untilAvailable,
} from './pods.js';
import type { IReplicaSetSpec } from 'kubernetes-models/apps/v1/ReplicaSetSpec';
import type { IReplicaSetStatus } from 'kubernetes-models/apps/v1/ReplicaSetStatus';
import { GVR, errorMessage, keyOf, type Sim } from './sim.js';
import { createObj, deleteObj, getObj, writeStatus } from './objects.js';
import { omitZero, timestamp, type Condition } from './values.js';
import { labelSelectorMatches } from '#kube-core';
import { claimInNamespace } from './ownership.js';

export const REPLICASET = 'replicaset';
const COMPONENT = 'replicaset-controller';

export function reconcileReplicaSet(sim: Sim, namespace: string, name: string): void {
  const rs = getObj(sim, GVR.replicasets, namespace, name);
  if (!rs) return;
  const spec: Partial<IReplicaSetSpec> = rs.spec ?? {};
  const pods = claimInNamespace(sim, GVR.pods, rs);
  let active = pods.filter(isPodActive);
  let failure: { message: string; err: unknown } | undefined;

  if (!rs.metadata.deletionTimestamp) {
    const want = spec.replicas ?? 1;
    const diff = active.length - want;
    if (diff < 0) {
      for (let i = 0; i < -diff; i++) {
        try {
          const pod = createObj(
            sim,
            GVR.pods,
            namespace,
            podFromTemplate(spec.template, rs, { generateName: `${name}-` }),
          );
          active = [...active, pod];
          sim.event(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, COMPONENT);
        } catch (err) {
          failure = { message: errorMessage(err), err };
          sim.event(rs, 'Warning', 'FailedCreate', `Error creating: ${errorMessage(err)}`, COMPONENT);
          break;
        }
      }
    } else if (diff > 0) {
      const victims = new Set([...active].sort(comparePodsForDeletion).slice(0, diff));
      for (const pod of victims) {
        deleteObj(sim, GVR.pods, pod);
        sim.event(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, COMPONENT);
      }
      active = active.filter((p) => !victims.has(p));
    }
  }

  const now = sim.now();
  const minReadySeconds = spec.minReadySeconds ?? 0;
  const templateLabels = spec.template?.metadata?.labels ?? {};
  const status: IReplicaSetStatus = {
    replicas: active.length,
    fullyLabeledReplicas: active.filter((p) =>
      labelSelectorMatches({ matchLabels: templateLabels }, p.metadata.labels),
    ).length,
    readyReplicas: active.filter(isPodReady).length,
    availableReplicas: active.filter((p) => isPodAvailable(p, minReadySeconds, now)).length,
    observedGeneration: rs.metadata.generation,
  };
  omitZero(status, ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']);
  const conditions = replicaFailure(conditionsOf(rs), failure, now);
  if (conditions.length) status.conditions = conditions;
  writeStatus(sim, GVR.replicasets, rs, status);

  for (const pod of active) {
    const wait = untilAvailable(pod, minReadySeconds, now);
    if (wait !== undefined) sim.enqueue(keyOf(REPLICASET, namespace, name), wait);
  }
  if (failure) throw failure.err;
}

/** The ReplicaFailure condition: set while pods cannot be created, removed once they can. */
function replicaFailure(
  existing: Condition[] | undefined,
  failure: { message: string; err: unknown } | undefined,
  now: number,
): Condition[] {
  const others = (existing ?? []).filter((c) => c.type !== 'ReplicaFailure');
  if (!failure) return others;
  const previous = existing?.find((c) => c.type === 'ReplicaFailure');
  return [
    ...others,
    {
      type: 'ReplicaFailure',
      status: 'True',
      reason: 'FailedCreate',
      message: failure.message,
      lastTransitionTime: previous?.status === 'True' ? previous.lastTransitionTime : timestamp(now),
    },
  ];
}
