import { age } from './duration.js';
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

function podReady(o: KubeObj): string {
  const statuses = (a(o).status?.containerStatuses ?? []) as Any[];
  const total = (a(o).spec?.containers ?? []).length;
  return `${statuses.filter((s) => s.ready).length}/${total}`;
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
    col('Ready', podReady),
    col('Status', (o) =>
      o.metadata.deletionTimestamp ? 'Terminating' : (a(o).status?.reason ?? a(o).status?.phase ?? 'Pending'),
    ),
    col(
      'Restarts',
      (o) =>
        (a(o).status?.containerStatuses ?? []).reduce((n: number, s: Any) => n + (s.restartCount ?? 0), 0),
      'string',
    ),
    AGE,
    col('IP', (o) => a(o).status?.podIP ?? '<none>', 'string', 1),
    col('Node', (o) => a(o).spec?.nodeName ?? '<none>', 'string', 1),
    col('Nominated Node', (o) => a(o).status?.nominatedNodeName ?? '<none>', 'string', 1),
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
    col('Completions', (o) => `${a(o).status?.succeeded ?? 0}/${a(o).spec?.completions ?? 1}`),
    col('Duration', (o) => (a(o).status?.startTime ? age(a(o).status.startTime) : '')),
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
    col('Ports', (o) => (a(o).spec?.tls?.length ? '80, 443' : '80')),
    AGE,
  ],
  Lease: [NAME, col('Holder', (o) => a(o).spec?.holderIdentity ?? ''), AGE],
  Endpoints: [
    NAME,
    col('Endpoints', (o) =>
      join((a(o).subsets ?? []).flatMap((s: Any) => (s.addresses ?? []).map((ad: Any) => ad.ip))),
    ),
    AGE,
  ],
  RoleBinding: [NAME, col('Role', (o) => `${a(o).roleRef?.kind}/${a(o).roleRef?.name}`), AGE],
  ClusterRoleBinding: [NAME, col('Role', (o) => `${a(o).roleRef?.kind}/${a(o).roleRef?.name}`), AGE],
};

function jobStatus(o: KubeObj): string {
  const conditions = (a(o).status?.conditions ?? []) as Any[];
  const has = (type: string) => conditions.some((c) => c.type === type && c.status === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (a(o).spec?.suspend) return 'Suspended';
  return 'Running';
}

/** Resources without a printer get Name and Created At, as kube's default table convertor does. */
export const DEFAULT_COLUMNS: ColumnSpec[] = [NAME, CREATED];
export const CRD_DEFAULT_COLUMNS: ColumnSpec[] = [NAME, AGE];
