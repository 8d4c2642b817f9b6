/** Printed columns for the workload kinds: apps (Deployment, ReplicaSet, StatefulSet, DaemonSet), batch and autoscaling. */
import { age, humanDuration } from './duration.js';
import { type StoredObject } from '#kube-core';
import {
  AGE,
  NAME,
  a,
  col,
  containers,
  join,
  podSpec,
  workloadTail,
  type Any,
  type ColumnSpec,
} from './column-helpers.js';

function hpaTargets(o: StoredObject): string {
  const metrics = (a(o).spec?.metrics ?? []) as Any[];
  const current = (a(o).status?.currentMetrics ?? []) as Any[];
  if (!metrics.length) return '<none>';
  return metrics
    .map((m, i) => {
      const target = m.resource?.target ?? m.pods?.target ?? m.object?.target ?? m.external?.target ?? {};
      const cur = current[i]?.resource?.current ?? {};
      const want =
        target.averageUtilization !== undefined
          ? `${target.averageUtilization}%`
          : (target.averageValue ?? target.value ?? '');
      const have =
        cur.averageUtilization !== undefined
          ? `${cur.averageUtilization}%`
          : (cur.averageValue ?? '<unknown>');
      return `${m.resource?.name ? `${m.resource.name}: ` : ''}${have}/${want}`;
    })
    .join(', ');
}

export const WORKLOAD_COLUMNS: Record<string, ColumnSpec[]> = {
  Deployment: [
    NAME,
    col('Ready', (o) => `${a(o).status?.readyReplicas ?? 0}/${a(o).spec?.replicas ?? 0}`),
    col('Up-to-date', (o) => a(o).status?.updatedReplicas ?? 0, 'string'),
    col('Available', (o) => a(o).status?.availableReplicas ?? 0, 'string'),
    AGE,
    ...workloadTail(),
  ],
  ReplicaSet: [
    NAME,
    col('Desired', (o) => a(o).spec?.replicas ?? 0, 'integer'),
    col('Current', (o) => a(o).status?.replicas ?? 0, 'integer'),
    col('Ready', (o) => a(o).status?.readyReplicas ?? 0, 'integer'),
    AGE,
    ...workloadTail(),
  ],
  StatefulSet: [
    NAME,
    col('Ready', (o) => `${a(o).status?.readyReplicas ?? 0}/${a(o).spec?.replicas ?? 0}`),
    AGE,
    ...containers(),
  ],
  DaemonSet: [
    NAME,
    col('Desired', (o) => a(o).status?.desiredNumberScheduled ?? 0, 'integer'),
    col('Current', (o) => a(o).status?.currentNumberScheduled ?? 0, 'integer'),
    col('Ready', (o) => a(o).status?.numberReady ?? 0, 'integer'),
    col('Up-to-date', (o) => a(o).status?.updatedNumberScheduled ?? 0, 'integer'),
    col('Available', (o) => a(o).status?.numberAvailable ?? 0, 'integer'),
    col('Node Selector', (o) =>
      join(Object.entries(podSpec(o).nodeSelector ?? {}).map(([k, v]) => `${k}=${v}`)),
    ),
    AGE,
    ...workloadTail(),
  ],
  Job: [
    NAME,
    col('Status', (o) => jobStatus(o)),
    col('Completions', jobCompletions),
    col('Duration', jobDuration),
    AGE,
    ...workloadTail(),
  ],
  CronJob: [
    NAME,
    col('Schedule', (o) => a(o).spec?.schedule ?? ''),
    col('Timezone', (o) => a(o).spec?.timeZone ?? '<none>'),
    col('Suspend', (o) => String(a(o).spec?.suspend ?? false), 'boolean'),
    col('Active', (o) => (a(o).status?.active ?? []).length, 'integer'),
    col('Last Schedule', (o) =>
      a(o).status?.lastScheduleTime ? age(a(o).status.lastScheduleTime) : '<none>',
    ),
    AGE,
    ...workloadTail(),
  ],
  HorizontalPodAutoscaler: [
    NAME,
    col('Reference', (o) => `${a(o).spec?.scaleTargetRef?.kind}/${a(o).spec?.scaleTargetRef?.name}`),
    col('Targets', hpaTargets),
    col('MinPods', (o) => a(o).spec?.minReplicas ?? 1, 'string'),
    col('MaxPods', (o) => a(o).spec?.maxReplicas ?? 0, 'string'),
    col('Replicas', (o) => a(o).status?.currentReplicas ?? 0, 'string'),
    AGE,
  ],
};

/** printers.go printJob: the first true condition of Complete, Failed, (deleting), Suspended, FailureTarget, SuccessCriteriaMet. */
function jobStatus(o: StoredObject): string {
  const conditions = (a(o).status?.conditions ?? []) as Any[];
  const has = (type: string) => conditions.find((c) => c.type === type)?.status === 'True';
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (o.metadata.deletionTimestamp) return 'Terminating';
  if (has('Suspended')) return 'Suspended';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function jobCompletions(o: StoredObject): string {
  const succeeded = a(o).status?.succeeded ?? 0;
  const completions = a(o).spec?.completions;
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = a(o).spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** From startTime to completionTime once the job completed; to now while it runs; empty before it starts. */
function jobDuration(o: StoredObject): string {
  const { startTime, completionTime } = (a(o).status ?? {}) as Any;
  if (!startTime) return '';
  if (!completionTime) return age(startTime);
  return humanDuration(Date.parse(completionTime) - Date.parse(startTime));
}
