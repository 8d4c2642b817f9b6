/**
 * The CronJob controller (pkg/controller/cronjob, v2): at each scheduled time
 * it creates a Job `<cronjob>-<minutes since the epoch>` from jobTemplate (with
 * the scheduled-timestamp annotation and a controller reference), honours
 * suspend, startingDeadlineSeconds and concurrencyPolicy (Allow/Forbid/Replace),
 * keeps status.active, lastScheduleTime and lastSuccessfulTime, and deletes
 * finished Jobs beyond the history limits.
 */
import { isControlledBy } from '#kube-core';
import type { ICronJobSpec } from 'kubernetes-models/batch/v1/CronJobSpec';
import type { ICronJobStatus } from 'kubernetes-models/batch/v1/CronJobStatus';
import type { IObjectReference } from 'kubernetes-models/v1/ObjectReference';
import { mostRecent, nextAfter, parseCron, type CronSchedule } from './cron.js';
import { isJobFinished } from './job.js';
import { GVR, keyOf, statusCode, type CronJob, type Job, type Sim } from './sim.js';
import { createObj, deleteObj, getObj, listObjs, writeStatus } from './objects.js';
import { findCondition, parseTime, timestamp } from './values.js';
import { controllerRef } from './ownership.js';

export const CRONJOB = 'cronjob';
const COMPONENT = 'cronjob-controller';
const SCHEDULED_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

const finishedType = (job: Job): string | undefined =>
  (job.status?.conditions ?? []).find(
    (c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True',
  )?.type;

/** RFC 3339 in the schedule's time zone, as the scheduled-timestamp annotation carries it. */
function zonedTimestamp(ms: number, tz?: string): string {
  if (!tz || tz === 'UTC' || tz === 'Etc/UTC') return timestamp(ms);
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  const wall = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  const offset = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const off =
    offset === 0
      ? 'Z'
      : `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${off}`;
}

export function reconcileCronJob(sim: Sim, namespace: string, name: string): void {
  const cj = getObj(sim, GVR.cronjobs, namespace, name);
  if (!cj) return;
  const key = keyOf(CRONJOB, namespace, name);
  const spec: Partial<ICronJobSpec> = cj.spec ?? {};
  const status: ICronJobStatus = { ...cj.status };
  const now = sim.now();
  const jobs = listObjs(sim, GVR.jobs, namespace, (j) => isControlledBy(j, cj.metadata.uid as string));
  const byUid = new Map(jobs.map((j) => [j.metadata.uid, j]));

  // The active list: finished or vanished jobs leave it; unfinished children we own are listed.
  let active = (status.active ?? []).filter((ref) => {
    const job = byUid.get(ref.uid as string);
    if (!job) return false;
    if (isJobFinished(job)) {
      const msg = `Saw completed job: ${job.metadata.name}, condition: ${finishedType(job)}`;
      sim.event(cj, 'Normal', 'SawCompletedJob', msg, COMPONENT);
      return false;
    }
    return true;
  });
  for (const job of jobs) {
    if (!isJobFinished(job) && !active.some((r) => r.uid === job.metadata.uid)) active.push(jobRef(job));
    const completed = parseTime(job.status?.completionTime);
    if (finishedType(job) === 'Complete' && completed !== undefined) {
      const last = parseTime(status.lastSuccessfulTime);
      if (last === undefined || completed > last) status.lastSuccessfulTime = timestamp(completed);
    }
  }

  const write = () => {
    const next: ICronJobStatus = { ...status };
    if (active.length) next.active = active;
    else delete next.active;
    writeStatus(sim, GVR.cronjobs, cj, next);
  };

  if (cj.metadata.deletionTimestamp) return write();
  let schedule: CronSchedule;
  try {
    schedule = parseCron(String(spec.schedule ?? ''));
  } catch (err) {
    sim.event(
      cj,
      'Warning',
      'UnparseableSchedule',
      `unparseable schedule: ${spec.schedule} : ${(err as Error).message}`,
      COMPONENT,
    );
    return write();
  }
  const tz = spec.timeZone;
  cleanupFinishedJobs(sim, cj, jobs);
  if (spec.suspend) return write();

  const since = parseTime(status.lastScheduleTime) ?? parseTime(cj.metadata.creationTimestamp) ?? now;
  const due = mostRecent(schedule, since, now, tz);
  const requeue = () => {
    const next = nextAfter(schedule, now, tz);
    if (next !== undefined) sim.enqueue(key, next - now + 100);
  };
  if (!due) {
    write();
    return requeue();
  }
  // JSON may carry null for "unset".
  const deadline: number | null | undefined = spec.startingDeadlineSeconds;
  if (deadline !== undefined && deadline !== null && due.time + deadline * 1000 < now) {
    sim.event(
      cj,
      'Warning',
      'MissSchedule',
      `Missed scheduled time to start a job: ${zonedTimestamp(due.time, tz)}`,
      COMPONENT,
    );
    write();
    return requeue();
  }
  const jobName = `${name}-${Math.floor(due.time / 60_000)}`;
  if (active.some((r) => r.name === jobName) || jobs.some((j) => j.metadata.name === jobName)) {
    write();
    return requeue();
  }
  const policy = spec.concurrencyPolicy ?? 'Allow';
  if (policy === 'Forbid' && active.length) {
    write();
    return requeue();
  }
  if (policy === 'Replace') {
    for (const ref of active) {
      const job = byUid.get(ref.uid as string);
      if (!job) continue;
      deleteObj(sim, GVR.jobs, job, 'Background');
      sim.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`, COMPONENT);
    }
    active = [];
  }
  const template: Partial<ICronJobSpec['jobTemplate']> = spec.jobTemplate ?? {};
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName,
      namespace,
      ...(template.metadata?.labels ? { labels: template.metadata.labels } : {}),
      annotations: {
        ...(template.metadata?.annotations ?? {}),
        [SCHEDULED_ANNOTATION]: zonedTimestamp(due.time, tz),
      },
      ownerReferences: [controllerRef(cj)],
    },
    spec: template.spec ?? {},
  };
  try {
    const created = createObj(sim, GVR.jobs, namespace, job);
    sim.event(cj, 'Normal', 'SuccessfulCreate', `Created job ${jobName}`, COMPONENT);
    active.push(jobRef(created));
  } catch (err) {
    if (statusCode(err) !== 409) {
      sim.event(cj, 'Warning', 'FailedCreate', `Error creating job: ${(err as Error).message}`, COMPONENT);
      throw err;
    }
  }
  status.lastScheduleTime = timestamp(due.time);
  write();
  requeue();
}

function jobRef(job: Job): IObjectReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata.name,
    namespace: job.metadata.namespace,
    resourceVersion: job.metadata.resourceVersion,
    uid: job.metadata.uid,
  };
}

/** cleanupFinishedJobs: the oldest finished Jobs beyond successful/failedJobsHistoryLimit are deleted. */
function cleanupFinishedJobs(sim: Sim, cj: CronJob, jobs: Job[]): void {
  const spec: Partial<ICronJobSpec> = cj.spec ?? {};
  const prune = (kind: string, limit: number | null | undefined) => {
    if (limit === undefined || limit === null) return;
    const finished = jobs
      .filter((j) => finishedType(j) === kind && !j.metadata.deletionTimestamp)
      .sort((a, b) => {
        const t = (j: Job) =>
          parseTime(j.status?.completionTime) ??
          parseTime(findCondition(j.status?.conditions, kind)?.lastTransitionTime) ??
          parseTime(j.metadata.creationTimestamp) ??
          0;
        return t(a) - t(b);
      });
    for (const job of finished.slice(0, Math.max(0, finished.length - limit))) {
      deleteObj(sim, GVR.jobs, job, 'Background');
      sim.event(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${job.metadata.name}`, COMPONENT);
    }
  };
  prune('Complete', spec.successfulJobsHistoryLimit);
  prune('Failed', spec.failedJobsHistoryLimit);
}
