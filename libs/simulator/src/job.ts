/**
 * The Job controller (pkg/controller/job): keeps up to `parallelism` Pods
 * running until `completions` have succeeded (or, without completions, until
 * one has and the rest finished), Indexed mode with completion indexes, Pod
 * failures counted against backoffLimit, activeDeadlineSeconds, suspend, and
 * the TTL-after-finished controller. Finished jobs carry completionTime and the
 * SuccessCriteriaMet + Complete (or FailureTarget + Failed) conditions.
 */
import type { IJobSpec } from 'kubernetes-models/batch/v1/JobSpec';
import type { IJobStatus } from 'kubernetes-models/batch/v1/JobStatus';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import { isPodActive, isPodReady, phaseOf, podFromTemplate } from './pods.js';
import { GVR, keyOf, type Job, type Pod, type Sim } from './sim.js';
import { createObj, deleteObj, getObj, writeStatus } from './objects.js';
import { findCondition, parseTime, timestamp, type Condition } from './values.js';
import { claimInNamespace } from './ownership.js';

export const JOB = 'job';
const COMPONENT = 'job-controller';
const INDEX_KEY = 'batch.kubernetes.io/job-completion-index';

const COMPLETIONS_REACHED = 'CompletionsReached';
const COMPLETIONS_MESSAGE = 'Reached expected number of succeeded pods';

/** A Job's status as the controller writes it. */
type JobStatus = Omit<IJobStatus, 'conditions'> & { conditions?: Condition[] };

export const isJobFinished = (job: Job) =>
  job.status?.conditions?.some(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  ) ?? false;

/** Parses "1,3-5" into a set of indexes. */
export function parseIndexes(text: unknown): Set<number> {
  const out = new Set<number>();
  if (typeof text !== 'string' || !text) return out;
  for (const part of text.split(',')) {
    const [a, b] = part.split('-').map(Number);
    for (let i = a; i <= (b ?? a); i++) out.add(i);
  }
  return out;
}

/** Formats a set of indexes the way status.completedIndexes does ("0-2,4"). */
export function formatIndexes(indexes: Set<number>): string {
  const sorted = [...indexes].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i];
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i] + 1) i++;
    parts.push(start === sorted[i] ? String(start) : `${start}-${sorted[i]}`);
  }
  return parts.join(',');
}

const indexOf = (pod: Pod): number | undefined => {
  const raw = pod.metadata.annotations?.[INDEX_KEY] ?? pod.metadata.labels?.[INDEX_KEY];
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
};

function condition(
  type: string,
  status: Condition['status'],
  reason: string,
  message: string,
  now: number,
): Condition {
  const t = timestamp(now);
  return { type, status, lastProbeTime: t, lastTransitionTime: t, reason, message };
}

/** Sets (or replaces) a job condition, keeping lastTransitionTime when its status does not change. */
function setCondition(conditions: Condition[], next: Condition): Condition[] {
  const prev = findCondition(conditions, next.type);
  if (prev && prev.status === next.status && prev.reason === next.reason && prev.message === next.message)
    return conditions;
  if (prev && prev.status === next.status) next.lastTransitionTime = prev.lastTransitionTime;
  return prev ? conditions.map((c) => (c.type === next.type ? next : c)) : [...conditions, next];
}

export function reconcileJob(sim: Sim, namespace: string, name: string): void {
  const job = getObj(sim, GVR.jobs, namespace, name);
  if (!job) return;
  const key = keyOf(JOB, namespace, name);
  const now = sim.now();
  if (isJobFinished(job)) return ttlAfterFinished(sim, job, key, now);
  if (job.metadata.deletionTimestamp) return;
  const spec: Partial<IJobSpec> = job.spec ?? {};
  const old: JobStatus = job.status ?? {};
  const status: JobStatus = { ...old };
  let conditions = [...(old.conditions ?? [])];
  const pods = claimInNamespace(sim, GVR.pods, job);
  let active = pods.filter(isPodActive);
  const indexed = spec.completionMode === 'Indexed';
  // JSON may carry null for "unset".
  const completions: number | null | undefined = spec.completions;
  const parallelism = spec.parallelism ?? 1;
  const backoffLimit = spec.backoffLimit ?? 6;
  const succeededPods = pods.filter((p) => phaseOf(p) === 'Succeeded');
  const failedPods = pods.filter((p) => phaseOf(p) === 'Failed');
  // Counts never go down when finished Pods are deleted (kube tracks them with finalizers).
  const succeeded = Math.max(old.succeeded ?? 0, succeededPods.length);
  const failed = Math.max(old.failed ?? 0, failedPods.length);
  const completed = parseIndexes(old.completedIndexes);
  for (const p of succeededPods) {
    const i = indexOf(p);
    if (i !== undefined && (completions === undefined || completions === null || i < completions))
      completed.add(i);
  }
  const done = indexed ? completed.size : succeeded;
  const restarts = active.reduce(
    (n, p) => n + (p.status?.containerStatuses ?? []).reduce((m, c) => m + (c.restartCount ?? 0), 0),
    0,
  );
  const onFailure = spec.template?.spec?.restartPolicy === 'OnFailure';
  const suspended = spec.suspend === true;
  const startTime = parseTime(old.startTime);
  const deadline = spec.activeDeadlineSeconds;

  const deleteActive = () => {
    for (const pod of active) {
      deleteObj(sim, GVR.pods, pod);
      sim.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, COMPONENT);
    }
    active = [];
  };

  let failure: { reason: string; message: string } | undefined;
  if (failed + (onFailure ? restarts : 0) > backoffLimit)
    failure = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
  else if (!suspended && deadline && startTime !== undefined && now - startTime >= deadline * 1000)
    failure = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
  const complete =
    completions === undefined || completions === null
      ? succeeded > 0 && active.length === 0
      : done >= completions;

  if (failure) {
    deleteActive();
    conditions = setCondition(
      conditions,
      condition('FailureTarget', 'True', failure.reason, failure.message, now),
    );
    conditions = setCondition(conditions, condition('Failed', 'True', failure.reason, failure.message, now));
    sim.event(job, 'Warning', failure.reason, failure.message, COMPONENT);
  } else if (complete) {
    deleteActive();
    conditions = setCondition(
      conditions,
      condition('SuccessCriteriaMet', 'True', COMPLETIONS_REACHED, COMPLETIONS_MESSAGE, now),
    );
    conditions = setCondition(
      conditions,
      condition('Complete', 'True', COMPLETIONS_REACHED, COMPLETIONS_MESSAGE, now),
    );
    status.completionTime = timestamp(now);
    sim.event(job, 'Normal', 'Completed', 'Job completed', COMPONENT);
  } else if (suspended) {
    deleteActive();
    if (findCondition(conditions, 'Suspended')?.status !== 'True') {
      conditions = setCondition(
        conditions,
        condition('Suspended', 'True', 'JobSuspended', 'Job suspended', now),
      );
      sim.event(job, 'Normal', 'Suspended', 'Job suspended', COMPONENT);
    }
    delete status.startTime;
  } else {
    if (findCondition(conditions, 'Suspended')?.status === 'True') {
      conditions = setCondition(
        conditions,
        condition('Suspended', 'False', 'JobResumed', 'Job resumed', now),
      );
      sim.event(job, 'Normal', 'Resumed', 'Job resumed', COMPONENT);
    }
    status.startTime ??= timestamp(now);
    // Without completions (a work queue): once one Pod succeeded, no new ones; the running ones finish.
    const want =
      completions === undefined || completions === null
        ? succeeded > 0
          ? active.length
          : parallelism
        : Math.max(0, Math.min(parallelism, completions - done));
    if (active.length > want) {
      const extra = active.slice(want);
      for (const pod of extra) {
        deleteObj(sim, GVR.pods, pod);
        sim.event(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`, COMPONENT);
      }
      active = active.slice(0, want);
    }
    const busy = new Set(active.map(indexOf).filter((i) => i !== undefined));
    for (let n = active.length; n < want; n++) {
      let index: number | undefined;
      if (indexed) {
        index = 0;
        while (completed.has(index) || busy.has(index)) index++;
        busy.add(index);
      }
      const pod = createObj(sim, GVR.pods, namespace, jobPod(job, index));
      active.push(pod);
      sim.event(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`, COMPONENT);
    }
    const begun = parseTime(status.startTime) ?? now;
    if (deadline) sim.enqueue(key, begun + deadline * 1000 - now + 5);
  }

  const next: JobStatus = {
    ...(conditions.length ? { conditions } : {}),
    ...(status.startTime ? { startTime: status.startTime } : {}),
    ...(status.completionTime ? { completionTime: status.completionTime } : {}),
    ...(active.length ? { active: active.length } : {}),
    ...(succeeded ? { succeeded } : {}),
    ...(failed ? { failed } : {}),
    ...(indexed && completed.size ? { completedIndexes: formatIndexes(completed) } : {}),
    terminating: 0,
    ready: active.filter(isPodReady).length,
    uncountedTerminatedPods: {},
  };
  const written = writeStatus(sim, GVR.jobs, job, next);
  if (isJobFinished(written)) ttlAfterFinished(sim, written, key, now);
}

/** The TTL-after-finished controller: deletes a finished job (and, in the foreground, its Pods) after the TTL. */
function ttlAfterFinished(sim: Sim, job: Job, key: string, now: number): void {
  const ttl: number | null | undefined = job.spec?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata.deletionTimestamp) return;
  const status = job.status ?? {};
  const finishedAt =
    parseTime(status.completionTime) ??
    parseTime(findCondition(status.conditions, 'Failed')?.lastTransitionTime) ??
    now;
  const wait = finishedAt + ttl * 1000 - now;
  if (wait > 0) return sim.enqueue(key, wait);
  deleteObj(sim, GVR.jobs, job, 'Foreground');
}

/** A Job's Pod: the template plus the labels kube-apiserver adds to Job templates, and the completion index. */
function jobPod(job: Job, index: number | undefined): Pod {
  const name = job.metadata.name as string;
  const uid = job.metadata.uid as string;
  const labels: Record<string, string> = {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
  const annotations: Record<string, string> = {};
  if (index !== undefined) {
    labels[INDEX_KEY] = String(index);
    annotations[INDEX_KEY] = String(index);
  }
  const template = job.spec!.template;
  const pod = podFromTemplate(
    template,
    job,
    { generateName: index === undefined ? `${name}-` : `${name}-${index}-` },
    labels,
    annotations,
  );
  if (index !== undefined) {
    const spec = pod.spec!;
    spec.hostname ??= `${name}-${index}`;
    const env: IEnvVar = {
      name: 'JOB_COMPLETION_INDEX',
      valueFrom: { fieldRef: { fieldPath: `metadata.labels['${INDEX_KEY}']` } },
    };
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      if (!(c.env ?? []).some((e) => e.name === 'JOB_COMPLETION_INDEX')) c.env = [...(c.env ?? []), env];
    }
  }
  return pod;
}
