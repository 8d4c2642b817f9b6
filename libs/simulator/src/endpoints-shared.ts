/** What the Endpoints and EndpointSlice controllers share: Service and pod helpers, ports, packing. */
import { jsonEqual, semanticValue, stableStringify } from '#kube-core';
import type { IEndpointAddress } from 'kubernetes-models/v1/EndpointAddress';
import type { IEndpointPort } from 'kubernetes-models/v1/EndpointPort';
import type { IEndpointSubset } from 'kubernetes-models/v1/EndpointSubset';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IServicePort } from 'kubernetes-models/v1/ServicePort';
import { phaseOf } from './pods.js';
import type { Pod, Service } from './sim.js';

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

export const selectorOf = (svc: Service): Record<string, string> | undefined => {
  const selector = svc.spec?.selector;
  // An empty selector is stored as none (protobuf in etcd cannot tell them apart).
  return selector && Object.keys(selector).length ? selector : undefined;
};

export const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

export const isServiceIpSet = (svc: Service) => {
  const ip = svc.spec?.clusterIP;
  return typeof ip === 'string' && ip !== '' && ip !== 'None';
};

export const isIpv6 = (ip: string) => ip.includes(':');

export const podIps = (pod: Pod): string[] => {
  const status = pod.status ?? {};
  const ips = (status.podIPs ?? []).map((p) => String(p.ip));
  if (!ips.length && typeof status.podIP === 'string' && status.podIP) ips.push(status.podIP);
  return ips;
};

/** endpointsliceutil.ShouldPodBeInEndpoints. */
export function shouldBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = phaseOf(pod);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!podIps(pod).length) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/** endpointsliceutil.ShouldSetHostname. */
export function hostnameFor(pod: Pod, svc: Service): string | undefined {
  const spec: Partial<IPodSpec> = pod.spec ?? {};
  return spec.hostname &&
    spec.subdomain === svc.metadata.name &&
    pod.metadata.namespace === svc.metadata.namespace
    ? spec.hostname
    : undefined;
}

/** podutil.FindPort: the pod's port for a service port (named target ports looked up by name and protocol). */
export function findPort(pod: Pod, servicePort: IServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (typeof target !== 'string') return undefined;
  const protocol = servicePort.protocol ?? 'TCP';
  const spec: Partial<IPodSpec> = pod.spec ?? {};
  const sidecars = (spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const c of [...(spec.containers ?? []), ...sidecars]) {
    for (const p of c.ports ?? []) {
      if (p.name === target && (p.protocol ?? 'TCP') === protocol) return p.containerPort;
    }
  }
  return undefined;
}

export const targetRef = (pod: Pod) => ({
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
        Object.entries(v)
          .filter(([, x]) => x !== '')
          .map(([k, x]) => [k, dropEmptyStrings(x)]),
      );
    return v;
  };
  return semanticValue(dropEmptyStrings(value));
}
export const same = (a: unknown, b: unknown) => jsonEqual(norm(a), norm(b));

/** Bytewise IP order, then target UID (endpoints.LessEndpointAddress). */
export const compareAddress = (a: IEndpointAddress, b: IEndpointAddress) =>
  a.ip < b.ip
    ? -1
    : a.ip > b.ip
      ? 1
      : String(a.targetRef?.uid ?? '').localeCompare(String(b.targetRef?.uid ?? ''));

/** A port of an Endpoints subset or of an EndpointSlice. */
export interface PortLike {
  name?: string;
  port?: number;
  protocol?: string;
}

export const portOrder = (p: PortLike) =>
  `${p.name ?? ''}\u0000${String(p.port).padStart(5, '0')}\u0000${p.protocol}`;

export interface AddressEntry {
  address: IEndpointAddress;
  ready: boolean;
  /** undefined: a headless Service without ports (address only). */
  port?: IEndpointPort;
}

/** endpoints.RepackSubsets: addresses grouped by the set of ports they serve; not-ready wins per address and port. */
export function repackSubsets(entries: AddressEntry[]): IEndpointSubset[] {
  const addrs = new Map<string, IEndpointAddress>();
  const byPort = new Map<string, { port?: IEndpointPort; ready: Map<string, boolean> }>();
  for (const e of entries) {
    const addrKey = `${e.address.ip}/${e.address.targetRef?.uid ?? ''}`;
    if (!addrs.has(addrKey)) addrs.set(addrKey, e.address);
    const portKey = e.port ? stableStringify(e.port) : '';
    let slot = byPort.get(portKey);
    if (!slot) byPort.set(portKey, (slot = { port: e.port, ready: new Map() }));
    const was = slot.ready.get(addrKey);
    if (was === undefined || was) slot.ready.set(addrKey, e.ready);
  }
  const groups = new Map<string, { ready: Map<string, boolean>; ports: IEndpointPort[] }>();
  for (const { port, ready } of byPort.values()) {
    const key = stableStringify([...ready.entries()].sort(([a], [b]) => a.localeCompare(b)));
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { ready, ports: [] }));
    if (port) group.ports.push(port);
  }
  const subsets = [...groups.values()].map(({ ready, ports }) => {
    const addresses: IEndpointAddress[] = [];
    const notReady: IEndpointAddress[] = [];
    for (const [key, ok] of ready) (ok ? addresses : notReady).push(addrs.get(key) as IEndpointAddress);
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
export function serviceFamily(svc: Service, pod?: Pod): 'IPv4' | 'IPv6' {
  const spec = svc.spec ?? {};
  const families = spec.ipFamilies ?? [];
  if (families.length) return families[0] === 'IPv6' ? 'IPv6' : 'IPv4';
  if (isServiceIpSet(svc)) return isIpv6(spec.clusterIP as string) ? 'IPv6' : 'IPv4';
  const ip = pod ? podIps(pod)[0] : undefined;
  return ip && isIpv6(ip) ? 'IPv6' : 'IPv4';
}
