/**
 * The Pod row's READY, STATUS and RESTARTS cells. They take the most logic of
 * any printed column (printers.go printPod), so they live apart from the
 * column lists; results are cached per object because three columns share them.
 */
import { age } from './duration.js';
import { type StoredObject } from '#kube-core';
import { a, type Any } from './column-helpers.js';

interface PodCells {
  ready: string;
  status: string;
  restarts: string;
}

const podCellCache = new WeakMap<StoredObject, PodCells>();
const laterThan = (a: string | undefined, b: string | undefined) =>
  Boolean(a) && (!b || Date.parse(a!) > Date.parse(b));

/** printers.go printPod: READY, STATUS and RESTARTS as kubectl shows them on a real cluster. */
export function podCells(o: StoredObject): PodCells {
  const cached = podCellCache.get(o);
  if (cached) return cached;
  const spec = (a(o).spec ?? {}) as Any;
  const status = (a(o).status ?? {}) as Any;
  const conditions = (status.conditions ?? []) as Any[];
  const phase = (status.phase ?? '') as string;
  let reason: string = status.reason || phase;
  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';

  const initSpecs = new Map<string, Any>(((spec.initContainers ?? []) as Any[]).map((c) => [c.name, c]));
  const restartable = (name: string) => initSpecs.get(name)?.restartPolicy === 'Always';
  const total =
    (spec.containers ?? []).length +
    [...initSpecs.values()].filter((c) => c.restartPolicy === 'Always').length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: string | undefined;
  let lastSidecarRestart: string | undefined;
  let initializing = false;
  const initStatuses = (status.initContainerStatuses ?? []) as Any[];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    restarts += c.restartCount ?? 0;
    const finished = c.lastState?.terminated?.finishedAt as string | undefined;
    if (laterThan(finished, lastRestart)) lastRestart = finished;
    if (restartable(c.name)) {
      sidecarRestarts += c.restartCount ?? 0;
      if (laterThan(finished, lastSidecarRestart)) lastSidecarRestart = finished;
    }
    const terminated = c.state?.terminated as Any | undefined;
    const waiting = c.state?.waiting as Any | undefined;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (restartable(c.name) && c.started === true) {
      if (c.ready) ready++;
      continue;
    }
    if (terminated) {
      reason = terminated.reason
        ? `Init:${terminated.reason}`
        : terminated.signal
          ? `Init:Signal:${terminated.signal}`
          : `Init:ExitCode:${terminated.exitCode ?? 0}`;
    } else if (waiting?.reason && waiting.reason !== 'PodInitializing') {
      reason = `Init:${waiting.reason}`;
    } else {
      reason = `Init:${i}/${initSpecs.size}`;
    }
    initializing = true;
    break;
  }
  const initialized = conditions.find((c) => c.type === 'Initialized')?.status === 'True';
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    let errorReason = '';
    const statuses = (status.containerStatuses ?? []) as Any[];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      restarts += c.restartCount ?? 0;
      const finished = c.lastState?.terminated?.finishedAt as string | undefined;
      if (laterThan(finished, lastRestart)) lastRestart = finished;
      const terminated = c.state?.terminated as Any | undefined;
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (terminated) {
        reason = terminated.reason
          ? terminated.reason
          : terminated.signal
            ? `Signal:${terminated.signal}`
            : `ExitCode:${terminated.exitCode ?? 0}`;
        if ((terminated.exitCode ?? 0) !== 0) errorReason = reason;
      } else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed') {
      const podReady = conditions.some((c) => c.type === 'Ready' && c.status === 'True');
      if (hasRunning && podReady) reason = 'Running';
      else if (errorReason) reason = errorReason;
      else if (hasRunning) reason = 'NotReady';
    }
  }
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  if (o.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (o.metadata.deletionTimestamp && !terminal) reason = 'Terminating';
  const cells: PodCells = {
    ready: `${ready}/${total}`,
    status: reason,
    restarts: restarts !== 0 && lastRestart ? `${restarts} (${age(lastRestart)} ago)` : String(restarts),
  };
  podCellCache.set(o, cells);
  return cells;
}
