import { type JsonObject, type StoredObject } from '#kube-core';

/**
 * A frozen value is a stored one the write shares (the status an update of the main resource
 * keeps, the spec an update of /status keeps): it was defaulted when it was written, and kube
 * keeps it as stored, so defaulting leaves it alone.
 */
const writable = (target: JsonObject) => !Object.isFrozen(target);

const obj = (parent: JsonObject, key: string): JsonObject => {
  if (!parent[key] || typeof parent[key] !== 'object') {
    if (!writable(parent)) return {};
    parent[key] = {};
  }
  return parent[key] as JsonObject;
};
const setDefault = (target: JsonObject, key: string, value: unknown) => {
  if (target[key] === undefined && writable(target)) target[key] = value;
};

function defaultPodSpec(spec: JsonObject): void {
  setDefault(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  for (const c of [
    ...((spec.containers as JsonObject[]) ?? []),
    ...((spec.initContainers as JsonObject[]) ?? []),
  ]) {
    setDefault(c, 'terminationMessagePath', '/dev/termination-log');
    setDefault(c, 'terminationMessagePolicy', 'File');
    setDefault(
      c,
      'imagePullPolicy',
      String(c.image ?? '').endsWith(':latest') || !String(c.image ?? '').includes(':')
        ? 'Always'
        : 'IfNotPresent',
    );
    for (const p of (c.ports as JsonObject[]) ?? []) setDefault(p, 'protocol', 'TCP');
  }
}

/** SetDefaults_Service (core/v1 defaults.go); cluster IPs and IP families come later, from the registry. */
function defaultService(spec: JsonObject): void {
  if (!writable(spec)) return;
  setDefault(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const clientIP = (spec.sessionAffinityConfig as { clientIP?: JsonObject } | undefined)?.clientIP;
    if (clientIP?.timeoutSeconds === undefined || clientIP.timeoutSeconds === null)
      spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  setDefault(spec, 'type', 'ClusterIP');
  for (const p of (spec.ports as JsonObject[]) ?? []) {
    setDefault(p, 'protocol', 'TCP');
    if ((p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') && writable(p))
      p.targetPort = p.port;
  }
  const externallyAccessible =
    spec.type === 'LoadBalancer' ||
    spec.type === 'NodePort' ||
    (spec.type === 'ClusterIP' && Array.isArray(spec.externalIPs) && spec.externalIPs.length > 0);
  if (externallyAccessible) setDefault(spec, 'externalTrafficPolicy', 'Cluster');
  if (['ClusterIP', 'NodePort', 'LoadBalancer'].includes(spec.type as string))
    setDefault(spec, 'internalTrafficPolicy', 'Cluster');
  if (spec.type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
}

/** The pod's QoS class as kube computes it from requests and limits. */
function qosClass(spec: JsonObject): string {
  const containers = (spec.containers as JsonObject[]) ?? [];
  const resources = containers.map(
    (c) => (c.resources ?? {}) as { requests?: JsonObject; limits?: JsonObject },
  );
  if (resources.every((r) => !Object.keys(r.requests ?? {}).length && !Object.keys(r.limits ?? {}).length))
    return 'BestEffort';
  const guaranteed = resources.every(
    (r) =>
      ['cpu', 'memory'].every((k) => r.limits?.[k] !== undefined) &&
      Object.entries(r.requests ?? {}).every(([k, v]) => r.limits?.[k] === v),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** An empty or typeless strategy becomes RollingUpdate with kube's default parameters. */
function rollingDefaults(spec: JsonObject, key: string, params: JsonObject): void {
  const strategy = obj(spec, key);
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy.type !== 'RollingUpdate') return;
  const rolling = obj(strategy, 'rollingUpdate');
  for (const [k, v] of Object.entries(params)) setDefault(rolling, k, v);
}

const WORKLOAD_DEFAULTS: Record<string, (spec: JsonObject) => void> = {
  Deployment: (spec) => {
    setDefault(spec, 'replicas', 1);
    setDefault(spec, 'revisionHistoryLimit', 10);
    setDefault(spec, 'progressDeadlineSeconds', 600);
    rollingDefaults(spec, 'strategy', { maxUnavailable: '25%', maxSurge: '25%' });
  },
  ReplicaSet: (spec) => setDefault(spec, 'replicas', 1),
  StatefulSet: (spec) => {
    setDefault(spec, 'replicas', 1);
    setDefault(spec, 'podManagementPolicy', 'OrderedReady');
    setDefault(spec, 'revisionHistoryLimit', 10);
    rollingDefaults(spec, 'updateStrategy', { partition: 0 });
  },
  DaemonSet: (spec) => {
    setDefault(spec, 'revisionHistoryLimit', 10);
    rollingDefaults(spec, 'updateStrategy', { maxUnavailable: 1, maxSurge: 0 });
  },
  Job: (spec) => {
    setDefault(spec, 'parallelism', 1);
    setDefault(spec, 'completions', 1);
    setDefault(spec, 'backoffLimit', 6);
    setDefault(spec, 'completionMode', 'NonIndexed');
    setDefault(spec, 'suspend', false);
  },
};

/**
 * The defaults kube-apiserver fills in for built-in kinds that our users and
 * the simulator read back (replicas, strategies, pod template fields); applied
 * on create and update, like the real defaulting on decode.
 */
export function applyBuiltinDefaults(object: StoredObject): void {
  const root: JsonObject = object;
  switch (object.kind) {
    case 'Namespace':
      object.metadata.labels = {
        ...object.metadata.labels,
        'kubernetes.io/metadata.name': object.metadata.name as string,
      };
      setDefault(obj(root, 'spec'), 'finalizers', ['kubernetes']);
      setDefault(obj(root, 'status'), 'phase', 'Active');
      return;
    case 'Secret':
      setDefault(root, 'type', 'Opaque');
      return;
    case 'Service':
      defaultService(obj(root, 'spec'));
      return;
    case 'Pod': {
      const spec = obj(root, 'spec');
      defaultPodSpec(spec);
      const status = obj(root, 'status');
      setDefault(status, 'phase', 'Pending');
      setDefault(status, 'qosClass', qosClass(spec));
      return;
    }
    case 'CronJob': {
      const spec = obj(root, 'spec');
      setDefault(spec, 'concurrencyPolicy', 'Allow');
      setDefault(spec, 'suspend', false);
      setDefault(spec, 'successfulJobsHistoryLimit', 3);
      setDefault(spec, 'failedJobsHistoryLimit', 1);
      return;
    }
  }
  const workload = object.kind ? WORKLOAD_DEFAULTS[object.kind] : undefined;
  if (workload) {
    const spec = obj(root, 'spec');
    workload(spec);
    const template = spec.template as JsonObject | undefined;
    if (template?.spec) defaultPodSpec(template.spec as JsonObject);
  }
}
