/**
 * The pod statuses the simulated kubelet writes at each step of a pod's life
 * (Pending, Running, readiness flips, CrashLoopBackOff, Succeeded/Failed),
 * with the five standard conditions in the kubelet's order and messages.
 * Pure: each takes the pod and the time and returns the status to write.
 */
import { deepCopy } from '#kube-core';
import type { IContainerStatus } from 'kubernetes-models/v1/ContainerStatus';
import type { IPodStatus } from 'kubernetes-models/v1/PodStatus';
import { containerStatus, containersOf, initContainersOf } from './kubelet-containers.js';
import { ANNOTATIONS } from './kubelet-lifecycle.js';
import { NODE_IP } from './node.js';
import { conditionsOf } from './pods.js';
import type { Pod } from './sim.js';
import { findCondition, timestamp, type Condition } from './values.js';

/** A Pod's status as the kubelet writes it (its conditions' lastProbeTime is null). */
export type PodStatus = Omit<IPodStatus, 'conditions'> & { conditions?: Condition[] };

/** The pod's status with the node's host IPs and a start time. */
function baseStatus(pod: Pod, now: number): PodStatus {
  const status: PodStatus = deepCopy(pod.status ?? {});
  status.hostIP = NODE_IP;
  status.hostIPs = [{ ip: NODE_IP }];
  status.startTime ??= timestamp(now);
  return status;
}

export function pendingStatus(pod: Pod, now: number): PodStatus {
  const status = baseStatus(pod, now);
  status.phase = 'Pending';
  const inits = initContainersOf(pod);
  const containers = containersOf(pod);
  const waiting = (reason: string) => ({ waiting: { reason } });
  if (inits.length) {
    status.initContainerStatuses = inits.map((c) => containerStatus(pod, c, waiting('PodInitializing')));
  }
  status.containerStatuses = containers.map((c) =>
    containerStatus(pod, c, waiting(inits.length ? 'PodInitializing' : 'ContainerCreating')),
  );
  const unready = `containers with unready status: [${containers.map((c) => c.name).join(' ')}]`;
  status.conditions = mergeConditions(
    conditionsOf(pod),
    [
      { type: 'PodReadyToStartContainers', status: 'False' },
      inits.length
        ? {
            type: 'Initialized',
            status: 'False',
            reason: 'ContainersNotInitialized',
            message: `containers with incomplete status: [${inits.map((c) => c.name).join(' ')}]`,
          }
        : { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: unready },
      { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: unready },
      { type: 'PodScheduled', status: 'True' },
    ],
    now,
  );
  return status;
}

export function runningStatus(pod: Pod, now: number, allocateIp: () => string): PodStatus {
  const status = baseStatus(pod, now);
  const ready = pod.metadata.annotations?.[ANNOTATIONS.ready] !== 'false';
  status.phase = 'Running';
  if (!status.podIP) {
    const ip = allocateIp();
    status.podIP = ip;
    status.podIPs = [{ ip }];
  }
  const previous: IContainerStatus[] = status.containerStatuses ?? [];
  const started = timestamp(now);
  const inits = initContainersOf(pod);
  if (inits.length) {
    status.initContainerStatuses = inits.map((c) =>
      c.restartPolicy === 'Always'
        ? containerStatus(pod, c, { running: { startedAt: started } }, { ready: true, started: true })
        : containerStatus(pod, c, {
            terminated: { exitCode: 0, reason: 'Completed', startedAt: started, finishedAt: started },
          }),
    );
  }
  status.containerStatuses = containersOf(pod).map((c) => {
    const prev = previous.find((p) => p.name === c.name);
    const restartCount = prev?.restartCount ?? 0;
    return containerStatus(
      pod,
      c,
      { running: { startedAt: started } },
      { ready, started: true, restartCount, lastState: prev?.lastState ?? {} },
    );
  });
  status.conditions = runningConditions(pod, ready, now);
  return status;
}

/** The status after the readiness probe's result changed, or undefined when it did not (or containers are not all running). */
export function readinessChange(pod: Pod, now: number): PodStatus | undefined {
  const status = pod.status ?? {};
  const statuses = status.containerStatuses ?? [];
  if (!statuses.length || !statuses.every((c) => c.state?.running)) return undefined;
  const ready = pod.metadata.annotations?.[ANNOTATIONS.ready] !== 'false';
  if (
    statuses.every((c) => c.ready === ready) &&
    (findCondition(conditionsOf(pod), 'Ready')?.status === 'True') === ready
  )
    return undefined;
  const next = baseStatus(pod, now);
  next.containerStatuses = statuses.map((c) => ({ ...c, ready }));
  next.conditions = runningConditions(pod, ready, now);
  return next;
}

/** The conditions of a pod whose containers all run: Ready and ContainersReady follow readiness. */
function runningConditions(pod: Pod, ready: boolean, now: number): Condition[] {
  const names = containersOf(pod)
    .map((c) => c.name)
    .join(' ');
  const unready = `containers with unready status: [${names}]`;
  return mergeConditions(
    conditionsOf(pod),
    [
      { type: 'PodReadyToStartContainers', status: 'True' },
      { type: 'Initialized', status: 'True' },
      ready
        ? { type: 'Ready', status: 'True' }
        : { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: unready },
      ready
        ? { type: 'ContainersReady', status: 'True' }
        : { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: unready },
      { type: 'PodScheduled', status: 'True' },
    ],
    now,
  );
}

export function crashLoopStatus(
  pod: Pod,
  now: number,
  code: number,
  backoffMs: (restarts: number) => number,
): PodStatus {
  const status = baseStatus(pod, now);
  const previous: IContainerStatus[] = status.containerStatuses ?? [];
  status.containerStatuses = containersOf(pod).map((c) => {
    const prev = previous.find((p) => p.name === c.name);
    const restartCount = (prev?.restartCount ?? 0) + 1;
    const terminated = {
      exitCode: code,
      reason: code === 0 ? 'Completed' : 'Error',
      startedAt: prev?.state?.running?.startedAt ?? timestamp(now),
      finishedAt: timestamp(now),
      containerID: prev?.containerID,
    };
    const backoff = Math.round(backoffMs(restartCount) / 1000);
    const message = `back-off ${backoff}s restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
    return containerStatus(
      pod,
      c,
      { waiting: { reason: 'CrashLoopBackOff', message } },
      { restartCount, lastState: { terminated }, containerId: prev?.containerID },
    );
  });
  const unready = `containers with unready status: [${containersOf(pod)
    .map((c) => c.name)
    .join(' ')}]`;
  status.conditions = mergeConditions(
    conditionsOf(pod),
    [
      { type: 'PodReadyToStartContainers', status: 'True' },
      { type: 'Initialized', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: unready },
      { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: unready },
      { type: 'PodScheduled', status: 'True' },
    ],
    now,
  );
  return status;
}

export function terminatedStatus(pod: Pod, now: number, code: number): PodStatus {
  const status = baseStatus(pod, now);
  status.phase = code === 0 ? 'Succeeded' : 'Failed';
  const previous: IContainerStatus[] = status.containerStatuses ?? [];
  status.containerStatuses = containersOf(pod).map((c) => {
    const prev = previous.find((p) => p.name === c.name);
    const terminated = {
      exitCode: code,
      reason: code === 0 ? 'Completed' : 'Error',
      startedAt: prev?.state?.running?.startedAt ?? timestamp(now),
      finishedAt: timestamp(now),
      containerID: prev?.containerID,
    };
    return containerStatus(
      pod,
      c,
      { terminated },
      {
        restartCount: prev?.restartCount ?? 0,
        lastState: prev?.lastState ?? {},
        containerId: prev?.containerID,
      },
    );
  });
  const reason = 'PodCompleted';
  status.conditions = mergeConditions(
    conditionsOf(pod),
    [
      { type: 'PodReadyToStartContainers', status: 'False' },
      { type: 'Initialized', status: 'True', reason },
      { type: 'Ready', status: 'False', reason },
      { type: 'ContainersReady', status: 'False', reason },
      { type: 'PodScheduled', status: 'True' },
    ],
    now,
  );
  return status;
}

/** Pod conditions in the kubelet's order, keeping lastTransitionTime when a condition's status did not change. */
export function mergeConditions(
  existing: Condition[] | undefined,
  desired: Array<Partial<Condition>>,
  now: number,
): Condition[] {
  const merged = desired.map((d) => {
    const prev = findCondition(existing, d.type as string);
    const same = prev && prev.status === d.status;
    return {
      type: d.type,
      status: d.status,
      lastProbeTime: null,
      lastTransitionTime: same ? prev.lastTransitionTime : timestamp(now),
      ...(d.reason ? { reason: d.reason } : {}),
      ...(d.message ? { message: d.message } : {}),
    } as Condition;
  });
  // Conditions other components own (readiness gates, DisruptionTarget...) stay.
  const owned = new Set(merged.map((c) => c.type));
  return [...merged, ...(existing ?? []).filter((c) => !owned.has(c.type))];
}
