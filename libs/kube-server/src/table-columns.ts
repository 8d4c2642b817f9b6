import { age, humanDuration } from './duration.js';
import type { KubeObj } from './store/types.js';

/** One printed column: kube's name/type/priority and how a cell is computed (priority 1 = `-o wide`). */
export interface ColumnSpec {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  priority?: number;
  format?: string;
  description?: string;
  cell: (obj: KubeObj) => unknown;
}

type Any = Record<string, any>;
const a = (o: KubeObj) => o as Any;
const col = (
  name: string,
  cell: ColumnSpec['cell'],
  type: ColumnSpec['type'] = 'string',
  priority = 0,
): ColumnSpec => ({
  name,
  type,
  priority,
  cell,
  ...(name === 'Name' ? { format: 'name' } : {}),
});
const NAME = col('Name', (o) => o.metadata.name);
const AGE = col('Age', (o) => age(o.metadata.creationTimestamp));
const CREATED = col('Created At', (o) => o.metadata.creationTimestamp, 'date');
const join = (values: unknown[] | undefined, empty = '<none>') =>
  values && values.length ? values.join(',') : empty;
const selector = (sel: Any | undefined) =>
  join(
    [
      ...Object.entries(sel?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`),
      ...(sel?.matchExpressions ?? []).map(
        (e: Any) => `${e.key} ${String(e.operator).toLowerCase()} (${(e.values ?? []).join(',')})`,
      ),
    ],
    '<none>',
  );
const podSpec = (o: KubeObj) =>
  (a(o).spec?.template?.spec ?? a(o).spec?.jobTemplate?.spec?.template?.spec ?? {}) as Any;
const containers = (wide = 1) => [
  col('Containers', (x) => join((podSpec(x).containers ?? []).map((c: Any) => c.name)), 'string', wide),
  col('Images', (x) => join((podSpec(x).containers ?? []).map((c: Any) => c.image)), 'string', wide),
];
const workloadTail = () => [
  ...containers(),
  col('Selector', (x) => selector(a(x).spec?.selector), 'string', 1),
];

interface PodCells {
  ready: string;
  status: string;
  restarts: string;
}

const podCellCache = new WeakMap<KubeObj, PodCells>();
const laterThan = (a: string | undefined, b: string | undefined) =>
  Boolean(a) && (!b || Date.parse(a!) > Date.parse(b));

/** printers.go printPod: READY, STATUS and RESTARTS as kubectl shows them on a real cluster. */
function podCells(o: KubeObj): PodCells {
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

function servicePorts(o: KubeObj): string {
  const ports = (a(o).spec?.ports ?? []) as Any[];
  return join(
    ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`),
    '<none>',
  );
}

function hpaTargets(o: KubeObj): string {
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

/** Columns per built-in kind, as kube-apiserver's printers define them (what `kubectl get` shows). */
export const BUILTIN_COLUMNS: Record<string, ColumnSpec[]> = {
  Namespace: [NAME, col('Status', (o) => a(o).status?.phase ?? ''), AGE],
  ConfigMap: [
    NAME,
    col(
      'Data',
      (o) => Object.keys(a(o).data ?? {}).length + Object.keys(a(o).binaryData ?? {}).length,
      'string',
    ),
    AGE,
  ],
  Secret: [
    NAME,
    col('Type', (o) => a(o).type ?? ''),
    col('Data', (o) => Object.keys(a(o).data ?? {}).length, 'string'),
    AGE,
  ],
  ServiceAccount: [NAME, col('Secrets', (o) => (a(o).secrets ?? []).length, 'string'), AGE],
  Service: [
    NAME,
    col('Type', (o) => a(o).spec?.type ?? 'ClusterIP'),
    col('Cluster-IP', (o) => a(o).spec?.clusterIP ?? '<none>'),
    col('External-IP', (o) =>
      join(
        a(o).status?.loadBalancer?.ingress?.map((i: Any) => i.ip ?? i.hostname) ?? a(o).spec?.externalIPs,
        '<none>',
      ),
    ),
    col('Port(s)', servicePorts),
    AGE,
    col(
      'Selector',
      (o) => join(Object.entries(a(o).spec?.selector ?? {}).map(([k, v]) => `${k}=${v}`)),
      'string',
      1,
    ),
  ],
  Pod: [
    NAME,
    col('Ready', (o) => podCells(o).ready),
    col('Status', (o) => podCells(o).status),
    col('Restarts', (o) => podCells(o).restarts, 'string'),
    AGE,
    col('IP', (o) => a(o).status?.podIPs?.[0]?.ip || a(o).status?.podIP || '<none>', 'string', 1),
    col('Node', (o) => a(o).spec?.nodeName || '<none>', 'string', 1),
    col('Nominated Node', (o) => a(o).status?.nominatedNodeName || '<none>', 'string', 1),
    col(
      'Readiness Gates',
      (o) => join(a(o).spec?.readinessGates?.map((g: Any) => g.conditionType)),
      'string',
      1,
    ),
  ],
  Event: [
    col('Last Seen', (o) => age(a(o).lastTimestamp ?? a(o).eventTime ?? o.metadata.creationTimestamp)),
    col('Type', (o) => a(o).type ?? ''),
    col('Reason', (o) => a(o).reason ?? ''),
    col(
      'Object',
      (o) => `${String(a(o).involvedObject?.kind ?? '').toLowerCase()}/${a(o).involvedObject?.name ?? ''}`,
    ),
    col('Subobject', (o) => a(o).involvedObject?.fieldPath ?? '', 'string', 1),
    col('Source', (o) => a(o).source?.component ?? a(o).reportingComponent ?? '', 'string', 1),
    col('Message', (o) => a(o).message ?? ''),
    col('First Seen', (o) => age(a(o).firstTimestamp ?? o.metadata.creationTimestamp), 'string', 1),
    col('Count', (o) => a(o).count ?? 1, 'string', 1),
    col('Name', (o) => o.metadata.name, 'string', 1),
  ],
  PersistentVolumeClaim: [
    NAME,
    col('Status', (o) => a(o).status?.phase ?? 'Pending'),
    col('Volume', (o) => a(o).spec?.volumeName ?? ''),
    col('Capacity', (o) => a(o).status?.capacity?.storage ?? ''),
    col('Access Modes', (o) => join(a(o).status?.accessModes, '')),
    col('StorageClass', (o) => a(o).spec?.storageClassName ?? '<unset>'),
    col('VolumeAttributesClass', (o) => a(o).spec?.volumeAttributesClassName ?? '<unset>', 'string', 1),
    AGE,
    col('VolumeMode', (o) => a(o).spec?.volumeMode ?? 'Filesystem', 'string', 1),
  ],
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
  Ingress: [
    NAME,
    col('Class', (o) => a(o).spec?.ingressClassName ?? '<none>'),
    col('Hosts', (o) =>
      join(
        a(o).spec?.rules?.map((r: Any) => r.host ?? '*'),
        '*',
      ),
    ),
    col('Address', (o) =>
      join(
        a(o).status?.loadBalancer?.ingress?.map((i: Any) => i.ip ?? i.hostname),
        '',
      ),
    ),
    col('Ports', (o) =>
      limited(
        ((a(o).ports ?? []) as Any[]).map((p) => (typeof p.port === 'number' ? p.port : (p.name ?? '*'))),
      ),
    ),
    col('Endpoints', (o) =>
      join((a(o).subsets ?? []).flatMap((s: Any) => (s.addresses ?? []).map((ad: Any) => ad.ip))),
    ),
    AGE,
  ],
  Node: [
    NAME,
    col('Status', nodeStatus),
    col('Roles', nodeRoles),
    AGE,
    col('Version', (o) => a(o).status?.nodeInfo?.kubeletVersion ?? ''),
    col('Internal-IP', (o) => nodeAddress(o, 'InternalIP'), 'string', 1),
    col('External-IP', (o) => nodeAddress(o, 'ExternalIP'), 'string', 1),
    col('OS-Image', (o) => a(o).status?.nodeInfo?.osImage || '<unknown>', 'string', 1),
    col(
      'Kernel-Version',
      (o) => {
        const info = a(o).status?.nodeInfo ?? {};
        return `${info.kernelVersion || '<unknown>'}${info.architecture ? ` (${info.architecture})` : ''}`;
      },
      'string',
      1,
    ),
    col(
      'Container-Runtime',
      (o) => a(o).status?.nodeInfo?.containerRuntimeVersion || '<unknown>',
      'string',
      1,
    ),
  ],
  EndpointSlice: [
    NAME,
    col('AddressType', (o) => a(o).addressType ?? ''),
    col('Ports', (o) =>
      limited(
        ((a(o).ports ?? []) as Any[]).map((p) =>
          p.port === undefined || p.port === null ? '<unset>' : p.port,
        ),
      ),
    ),
    col('Endpoints', (o) => limited(((a(o).endpoints ?? []) as Any[]).flatMap((e) => e.addresses ?? []))),
    AGE,
  ],
  RoleBinding: [NAME, col('Role', (o) => `${a(o).roleRef?.kind}/${a(o).roleRef?.name}`), AGE],
  ClusterRoleBinding: [NAME, col('Role', (o) => `${a(o).roleRef?.kind}/${a(o).roleRef?.name}`), AGE],
};

/** printers.go printNode: Ready/NotReady/Unknown from the Ready condition, SchedulingDisabled when cordoned. */
function nodeStatus(o: KubeObj): string {
  const ready = ((a(o).status?.conditions ?? []) as Any[]).find((c) => c.type === 'Ready');
  const status = [!ready ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (a(o).spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** node-role.kubernetes.io/<role> labels and the kubernetes.io/role label, sorted; <none> without any. */
function nodeRoles(o: KubeObj): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
    const role = k.startsWith('node-role.kubernetes.io/') ? k.slice('node-role.kubernetes.io/'.length) : '';
    if (role) roles.add(role);
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

function nodeAddress(o: KubeObj, type: string): string {
  const found = ((a(o).status?.addresses ?? []) as Any[]).find((ad) => ad.type === type);
  return found?.address ?? '<none>';
}

/** printers.go's EndpointSlice lists: at most three values, then " + N more...", or <unset>. */
function limited(values: unknown[]): string {
  if (!values.length) return '<unset>';
  const shown = values.slice(0, 3).join(',');
  return values.length > 3 ? `${shown} + ${values.length - 3} more...` : shown;
}

/** printers.go printJob: the first true condition of Complete, Failed, (deleting), Suspended, FailureTarget, SuccessCriteriaMet. */
function jobStatus(o: KubeObj): string {
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

function jobCompletions(o: KubeObj): string {
  const succeeded = a(o).status?.succeeded ?? 0;
  const completions = a(o).spec?.completions;
  if (typeof completions === 'number') return `${succeeded}/${completions}`;
  const parallelism = a(o).spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** From startTime to completionTime once the job completed; to now while it runs; empty before it starts. */
function jobDuration(o: KubeObj): string {
  const { startTime, completionTime } = (a(o).status ?? {}) as Any;
  if (!startTime) return '';
  if (!completionTime) return age(startTime);
  return humanDuration(Date.parse(completionTime) - Date.parse(startTime));
}

/** Resources without a printer get Name and Created At, as kube's default table convertor does. */
export const DEFAULT_COLUMNS: ColumnSpec[] = [NAME, CREATED];
export const CRD_DEFAULT_COLUMNS: ColumnSpec[] = [NAME, AGE];
