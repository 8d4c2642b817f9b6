/** What the Endpoints and EndpointSlice controllers share: Service and pod helpers, ports, packing. */
import { jsonEqual, semanticValue, stableStringify, type StoredObject } from '#kube-core';
import { phaseOf } from './pods.js';
import { type Obj } from './sim.js';

export const SERVICE = 'service';

export const ENDPOINTS_MANAGED_BY = 'endpoints.kubernetes.io/managed-by';
export const ENDPOINTS_CONTROLLER = 'endpoint-controller';
export const SLICE_SERVICE_NAME = 'kubernetes.io/service-name';
export const SLICE_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const SLICE_CONTROLLER = 'endpointslice-controller.k8s.io';
export const HEADLESS = 'service.kubernetes.io/headless';
export const MAX_ENDPOINTS_PER_SLICE = 100;
/** How soon a Service is synced again when a pod's Node is missing (the real controller requeues with backoff). */
export const MISSING_NODE_RETRY_MS = 1000;

export const selectorOf = (svc: StoredObject): Record<string, string> | undefined => {
  const selector = (svc.spec as Obj | undefined)?.selector as Record<string, string> | undefined;
  // An empty selector is stored as none (protobuf in etcd cannot tell them apart).
  return selector && Object.keys(selector).length ? selector : undefined;
};

export const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

export const isServiceIpSet = (svc: StoredObject) => {
  const ip = (svc.spec as Obj | undefined)?.clusterIP;
  return typeof ip === 'string' && ip !== '' && ip !== 'None';
};

export const isIpv6 = (ip: string) => ip.includes(':');

export const podIps = (pod: StoredObject): string[] => {
  const status = (pod.status ?? {}) as Obj;
  const ips = ((status.podIPs as Obj[] | undefined) ?? []).map((p) => String(p.ip));
  if (!ips.length && typeof status.podIP === 'string' && status.podIP) ips.push(status.podIP);
  return ips;
};

/** endpointsliceutil.ShouldPodBeInEndpoints. */
export function shouldBeInEndpoints(pod: StoredObject, includeTerminating: boolean): boolean {
  const phase = phaseOf(pod);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!podIps(pod).length) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/** endpointsliceutil.ShouldSetHostname. */
export function hostnameFor(pod: StoredObject, svc: StoredObject): string | undefined {
  const spec = (pod.spec ?? {}) as Obj;
  return spec.hostname &&
    spec.subdomain === svc.metadata.name &&
    pod.metadata.namespace === svc.metadata.namespace
    ? (spec.hostname as string)
    : undefined;
}

/** podutil.FindPort: the pod's port for a service port (named target ports looked up by name and protocol). */
export function findPort(pod: StoredObject, servicePort: Obj): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (typeof target !== 'string') return undefined;
  const protocol = servicePort.protocol ?? 'TCP';
  const spec = (pod.spec ?? {}) as Obj;
  const sidecars = ((spec.initContainers as Obj[] | undefined) ?? []).filter(
    (c) => c.restartPolicy === 'Always',
  );
  for (const c of [...((spec.containers as Obj[] | undefined) ?? []), ...sidecars]) {
    for (const p of (c.ports as Obj[] | undefined) ?? []) {
      if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort as number;
    }
  }
  return undefined;
}

export const targetRef = (pod: StoredObject) => ({
  kind: 'Pod',
  namespace: pod.metadata.namespace,
  name: pod.metadata.name,
  uid: pod.metadata.uid,
});

/** Removes what the API cannot tell from absent (nulls, empty lists/maps, empty strings) for comparisons. */
export function norm(value: unknown): unknown {
  const dropEmptyStrings = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(dropEmptyStrings);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v as Obj)
          .filter(([, x]) => x !== '')
          .map(([k, x]) => [k, dropEmptyStrings(x)]),
      );
    return v;
  };
  return semanticValue(dropEmptyStrings(value));
}
export const same = (a: unknown, b: unknown) => jsonEqual(norm(a), norm(b));

/** Bytewise IP order, then target UID (endpoints.LessEndpointAddress). */
export const compareAddress = (a: Obj, b: Obj) =>
  a.ip < b.ip
    ? -1
    : a.ip > b.ip
      ? 1
      : String(a.targetRef?.uid ?? '').localeCompare(String(b.targetRef?.uid ?? ''));

export const portOrder = (p: Obj) =>
  `${p.name ?? ''}\u0000${String(p.port).padStart(5, '0')}\u0000${p.protocol}`;

export interface AddressEntry {
  address: Obj;
  ready: boolean;
  /** undefined: a headless Service without ports (address only). */
  port?: Obj;
}

/** endpoints.RepackSubsets: addresses grouped by the set of ports they serve; not-ready wins per address and port. */
export function repackSubsets(entries: AddressEntry[]): Obj[] {
  const addrs = new Map<string, Obj>();
  const byPort = new Map<string, { port?: Obj; ready: Map<string, boolean> }>();
  for (const e of entries) {
    const addrKey = `${e.address.ip}/${e.address.targetRef?.uid ?? ''}`;
    if (!addrs.has(addrKey)) addrs.set(addrKey, e.address);
    const portKey = e.port ? stableStringify(e.port) : '';
    let slot = byPort.get(portKey);
    if (!slot) byPort.set(portKey, (slot = { port: e.port, ready: new Map() }));
    const was = slot.ready.get(addrKey);
    if (was === undefined || was) slot.ready.set(addrKey, e.ready);
  }
  const groups = new Map<string, { ready: Map<string, boolean>; ports: Obj[] }>();
  for (const { port, ready } of byPort.values()) {
    const key = stableStringify([...ready.entries()].sort(([a], [b]) => a.localeCompare(b)));
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { ready, ports: [] }));
    if (port) group.ports.push(port);
  }
  const subsets = [...groups.values()].map(({ ready, ports }) => {
    const addresses: Obj[] = [];
    const notReady: Obj[] = [];
    for (const [key, ok] of ready) (ok ? addresses : notReady).push(addrs.get(key) as Obj);
    addresses.sort(compareAddress);
    notReady.sort(compareAddress);
    ports.sort((a, b) => portOrder(a).localeCompare(portOrder(b)));
    return {
      ...(addresses.length ? { addresses } : {}),
      ...(notReady.length ? { notReadyAddresses: notReady } : {}),
      ...(ports.length ? { ports } : {}),
    };
  });
  return subsets.sort((a, b) => stableStringify(a.ports ?? []).localeCompare(stableStringify(b.ports ?? [])));
}

/** The address family a Service publishes (its first ipFamily, else its IP's, else the pod's). */
export function serviceFamily(svc: StoredObject, pod?: StoredObject): 'IPv4' | 'IPv6' {
  const spec = (svc.spec ?? {}) as Obj;
  const families = (spec.ipFamilies as string[] | undefined) ?? [];
  if (families.length) return families[0] === 'IPv6' ? 'IPv6' : 'IPv4';
  if (isServiceIpSet(svc)) return isIpv6(spec.clusterIP as string) ? 'IPv6' : 'IPv4';
  const ip = pod ? podIps(pod)[0] : undefined;
  return ip && isIpv6(ip) ? 'IPv6' : 'IPv4';
}
