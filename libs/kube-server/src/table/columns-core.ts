/** Printed columns for the core (v1) kinds, as kube-apiserver's printers define them. */
import { age } from './duration.js';
import { type StoredObject } from '#kube-core';
import { AGE, NAME, a, col, join, type Any, type ColumnSpec } from './column-helpers.js';
import { podCells } from './pod-cells.js';

function servicePorts(o: StoredObject): string {
  const ports = (a(o).spec?.ports ?? []) as Any[];
  return join(
    ports.map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`),
    '<none>',
  );
}

export const CORE_COLUMNS: Record<string, ColumnSpec[]> = {
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
};

/** printers.go printNode: Ready/NotReady/Unknown from the Ready condition, SchedulingDisabled when cordoned. */
function nodeStatus(o: StoredObject): string {
  const ready = ((a(o).status?.conditions ?? []) as Any[]).find((c) => c.type === 'Ready');
  const status = [!ready ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (a(o).spec?.unschedulable) status.push('SchedulingDisabled');
  return status.join(',');
}

/** node-role.kubernetes.io/<role> labels and the kubernetes.io/role label, sorted; <none> without any. */
function nodeRoles(o: StoredObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
    const role = k.startsWith('node-role.kubernetes.io/') ? k.slice('node-role.kubernetes.io/'.length) : '';
    if (role) roles.add(role);
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return roles.size ? [...roles].sort().join(',') : '<none>';
}

function nodeAddress(o: StoredObject, type: string): string {
  const found = ((a(o).status?.addresses ?? []) as Any[]).find((ad) => ad.type === type);
  return found?.address ?? '<none>';
}
