/**
 * The endpoints and EndpointSlice controllers (pkg/controller/endpoint,
 * pkg/controller/endpointslice with k8s.io/endpointslice's reconciler): for
 * every Service with a selector (not ExternalName), the pods it selects, with
 * the IPs the simulated kubelet gave them, become
 * - an Endpoints object of the Service's name: ready pods under `addresses`,
 *   unready ones under `notReadyAddresses` (both with nodeName and targetRef),
 *   subsets repacked by port set, ports resolved from `targetPort` (named ports
 *   looked up in the pod's containers, per protocol); headless Services without
 *   ports get address-only subsets;
 * - EndpointSlices `<service>-xxxxx` (labels kubernetes.io/service-name and
 *   endpointslice.kubernetes.io/managed-by, owned by the Service), one group per
 *   port set and address type, at most 100 endpoints each, with
 *   ready/serving/terminating conditions, and an empty placeholder slice when
 *   nothing is selected. Only when the server serves `endpointslices`.
 * Services without a selector are left alone (their endpoints are the user's).
 */
import type { KubeObj } from '../store/types.js';
import { isPodReady, phaseOf } from './pods.js';
import {
  GVR,
  clone,
  deleteObj,
  getObj,
  keyOf,
  listObjs,
  semantic,
  served,
  stableJson,
  writeObj,
  type Obj,
  type Sim,
} from './runtime.js';

export const SERVICE = 'service';

export const ENDPOINTS_MANAGED_BY = 'endpoints.kubernetes.io/managed-by';
export const ENDPOINTS_CONTROLLER = 'endpoint-controller';
export const SLICE_SERVICE_NAME = 'kubernetes.io/service-name';
export const SLICE_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
export const SLICE_CONTROLLER = 'endpointslice-controller.k8s.io';
const HEADLESS = 'service.kubernetes.io/headless';
const MAX_ENDPOINTS_PER_SLICE = 100;
/** How soon a Service is synced again when a pod's Node is missing (the real controller requeues with backoff). */
const MISSING_NODE_RETRY_MS = 1000;

const selectorOf = (svc: KubeObj): Record<string, string> | undefined => {
  const selector = (svc.spec as Obj | undefined)?.selector as Record<string, string> | undefined;
  // An empty selector is stored as none (protobuf in etcd cannot tell them apart).
  return selector && Object.keys(selector).length ? selector : undefined;
};

const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

const isServiceIpSet = (svc: KubeObj) => {
  const ip = (svc.spec as Obj | undefined)?.clusterIP;
  return typeof ip === 'string' && ip !== '' && ip !== 'None';
};

const isIpv6 = (ip: string) => ip.includes(':');

const podIps = (pod: KubeObj): string[] => {
  const status = (pod.status ?? {}) as Obj;
  const ips = ((status.podIPs as Obj[] | undefined) ?? []).map((p) => String(p.ip));
  if (!ips.length && typeof status.podIP === 'string' && status.podIP) ips.push(status.podIP);
  return ips;
};

/** endpointsliceutil.ShouldPodBeInEndpoints. */
function shouldBeInEndpoints(pod: KubeObj, includeTerminating: boolean): boolean {
  const phase = phaseOf(pod);
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!podIps(pod).length) return false;
  return includeTerminating || !pod.metadata.deletionTimestamp;
}

/** endpointsliceutil.ShouldSetHostname. */
function hostnameFor(pod: KubeObj, svc: KubeObj): string | undefined {
  const spec = (pod.spec ?? {}) as Obj;
  return spec.hostname &&
    spec.subdomain === svc.metadata.name &&
    pod.metadata.namespace === svc.metadata.namespace
    ? (spec.hostname as string)
    : undefined;
}

/** podutil.FindPort: the pod's port for a service port (named target ports looked up by name and protocol). */
export function findPort(pod: KubeObj, servicePort: Obj): number | undefined {
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

const targetRef = (pod: KubeObj) => ({
  kind: 'Pod',
  namespace: pod.metadata.namespace,
  name: pod.metadata.name,
  uid: pod.metadata.uid,
});

/** Removes what the API cannot tell from absent (nulls, empty lists/maps, empty strings) for comparisons. */
function norm(value: unknown): unknown {
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
  return semantic(dropEmptyStrings(value));
}
const same = (a: unknown, b: unknown) => stableJson(norm(a)) === stableJson(norm(b));

/** Bytewise IP order, then target UID (endpoints.LessEndpointAddress). */
const compareAddress = (a: Obj, b: Obj) =>
  a.ip < b.ip
    ? -1
    : a.ip > b.ip
      ? 1
      : String(a.targetRef?.uid ?? '').localeCompare(String(b.targetRef?.uid ?? ''));

const portOrder = (p: Obj) => `${p.name ?? ''}\u0000${String(p.port).padStart(5, '0')}\u0000${p.protocol}`;

interface AddressEntry {
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
    const portKey = e.port ? stableJson(e.port) : '';
    let slot = byPort.get(portKey);
    if (!slot) byPort.set(portKey, (slot = { port: e.port, ready: new Map() }));
    const was = slot.ready.get(addrKey);
    if (was === undefined || was) slot.ready.set(addrKey, e.ready);
  }
  const groups = new Map<string, { ready: Map<string, boolean>; ports: Obj[] }>();
  for (const { port, ready } of byPort.values()) {
    const key = stableJson([...ready.entries()].sort(([a], [b]) => a.localeCompare(b)));
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
  return subsets.sort((a, b) => stableJson(a.ports ?? []).localeCompare(stableJson(b.ports ?? [])));
}

/**
 * Keeps the Services' endpoints. Pods wake the Services that select them now,
 * and those that selected them at their last sync (a relabelled pod leaves).
 */
export class EndpointsController {
  /** Selectors of the Services that have one, by namespace and name. */
  private readonly selectors = new Map<string, Map<string, Record<string, string>>>();
  /** The pods each Service selected at its last sync ("<ns>/<svc>" → pod names). */
  private readonly members = new Map<string, Set<string>>();

  constructor(private readonly sim: Sim) {}

  /** Indexes a Service (from an event or the initial list); returns the key to sync. */
  serviceChanged(svc: KubeObj, deleted: boolean): string {
    const ns = svc.metadata.namespace ?? '';
    const name = svc.metadata.name as string;
    let byName = this.selectors.get(ns);
    const selector = deleted ? undefined : selectorOf(svc);
    if (selector) {
      if (!byName) this.selectors.set(ns, (byName = new Map()));
      byName.set(name, selector);
    } else {
      byName?.delete(name);
      if (byName && !byName.size) this.selectors.delete(ns);
    }
    return keyOf(SERVICE, ns, name);
  }

  /** The Services a pod's change may affect. */
  podChanged(pod: KubeObj, deleted: boolean): string[] {
    const ns = pod.metadata.namespace ?? '';
    const name = pod.metadata.name as string;
    const keys: string[] = [];
    for (const [svc, selector] of this.selectors.get(ns) ?? []) {
      const selects = !deleted && matches(selector, pod.metadata.labels);
      if (selects || this.members.get(`${ns}/${svc}`)?.has(name)) keys.push(keyOf(SERVICE, ns, svc));
    }
    return keys;
  }

  /** Every Service with a selector (a Node appeared: slices may now include its pods). */
  allServices(): string[] {
    const keys: string[] = [];
    for (const [ns, byName] of this.selectors)
      for (const name of byName.keys()) keys.push(keyOf(SERVICE, ns, name));
    return keys;
  }

  reconcile(namespace: string, name: string): void {
    const svc = getObj(this.sim, GVR.services, namespace, name);
    if (!svc) {
      this.members.delete(`${namespace}/${name}`);
      // syncService on a deleted Service deletes the Endpoints of its name, whoever wrote them,
      // as the real controller does; EndpointSlices go with their owner (garbage collection).
      const stale = getObj(this.sim, GVR.endpoints, namespace, name);
      if (stale) deleteObj(this.sim, GVR.endpoints, stale);
      return;
    }
    this.serviceChanged(svc, false);
    const selector = selectorOf(svc);
    const spec = (svc.spec ?? {}) as Obj;
    if (spec.type === 'ExternalName' || !selector || svc.metadata.deletionTimestamp) {
      this.members.delete(`${namespace}/${name}`);
      return;
    }
    const pods = listObjs(this.sim, GVR.pods, namespace).filter((p) => matches(selector, p.metadata.labels));
    this.members.set(`${namespace}/${name}`, new Set(pods.map((p) => p.metadata.name as string)));
    if (served(this.sim, GVR.endpoints)) this.syncEndpoints(svc, pods);
    if (served(this.sim, GVR.endpointslices)) this.syncSlices(svc, pods);
  }

  /** The IP family whose addresses the Service gets (podToEndpointAddressForService). */
  private family(svc: KubeObj, pod?: KubeObj): 'IPv4' | 'IPv6' {
    const spec = (svc.spec ?? {}) as Obj;
    const families = (spec.ipFamilies as string[] | undefined) ?? [];
    if (families.length) return families[0] === 'IPv6' ? 'IPv6' : 'IPv4';
    if (isServiceIpSet(svc)) return isIpv6(spec.clusterIP as string) ? 'IPv6' : 'IPv4';
    const ip = pod ? podIps(pod)[0] : undefined;
    return ip && isIpv6(ip) ? 'IPv6' : 'IPv4';
  }

  private syncEndpoints(svc: KubeObj, pods: KubeObj[]): void {
    const spec = (svc.spec ?? {}) as Obj;
    const publishNotReady = spec.publishNotReadyAddresses === true;
    const servicePorts = (spec.ports as Obj[] | undefined) ?? [];
    const entries: AddressEntry[] = [];
    for (const pod of pods) {
      if (!shouldBeInEndpoints(pod, publishNotReady)) continue;
      const wantV6 = this.family(svc, pod) === 'IPv6';
      const ip = podIps(pod).find((a) => isIpv6(a) === wantV6);
      if (!ip) continue;
      const hostname = hostnameFor(pod, svc);
      const address: Obj = {
        ip,
        ...(hostname ? { hostname } : {}),
        nodeName: (pod.spec as Obj | undefined)?.nodeName ?? '',
        targetRef: targetRef(pod),
      };
      const ready = publishNotReady || isPodReady(pod);
      if (!servicePorts.length) {
        if (spec.clusterIP === 'None') entries.push({ address, ready });
        continue;
      }
      for (const sp of servicePorts) {
        const port = findPort(pod, sp);
        if (port === undefined) continue;
        entries.push({
          address,
          ready,
          port: {
            ...(sp.name ? { name: sp.name } : {}),
            port,
            protocol: sp.protocol ?? 'TCP',
            ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
          },
        });
      }
    }
    const subsets = repackSubsets(entries);
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}) };
    if (isServiceIpSet(svc)) delete labels[HEADLESS];
    else labels[HEADLESS] = '';
    labels[ENDPOINTS_MANAGED_BY] = ENDPOINTS_CONTROLLER;

    const namespace = svc.metadata.namespace as string;
    const name = svc.metadata.name as string;
    const current = getObj(this.sim, GVR.endpoints, namespace, name);
    if (!current) {
      this.sim.api.create(GVR.endpoints, namespace, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name, namespace, labels },
        ...(subsets.length ? { subsets } : {}),
      });
      return;
    }
    if (same(current.subsets ?? [], subsets) && same(current.metadata.labels ?? {}, labels)) return;
    const next = clone(current);
    next.metadata.labels = labels;
    if (subsets.length) next.subsets = subsets;
    else delete next.subsets;
    writeObj(this.sim, GVR.endpoints, next);
  }

  private syncSlices(svc: KubeObj, pods: KubeObj[]): void {
    const namespace = svc.metadata.namespace as string;
    const name = svc.metadata.name as string;
    const spec = (svc.spec ?? {}) as Obj;
    const publishNotReady = spec.publishNotReadyAddresses === true;
    const families = ((spec.ipFamilies as string[] | undefined) ?? []).filter(
      (f) => f === 'IPv4' || f === 'IPv6',
    );
    const addressTypes: string[] = families.length ? families : [this.family(svc)];

    const existing = this.sim.api
      .list(GVR.endpointslices, namespace, {
        labelSelector: `${SLICE_SERVICE_NAME}=${name},${SLICE_MANAGED_BY}=${SLICE_CONTROLLER}`,
      })
      .map(clone)
      .filter((s) => !s.metadata.deletionTimestamp);
    const ownedBy = (slice: KubeObj) =>
      (slice.metadata.ownerReferences ?? []).some(
        (o) => o.uid === svc.metadata.uid && o.kind === 'Service' && o.apiVersion === 'v1',
      );
    const toDelete = existing.filter((s) => !ownedBy(s) || !addressTypes.includes(s.addressType as string));

    // Pods on a Node that does not exist are left out until it does (unless not-ready addresses are published).
    const nodesServed = served(this.sim, GVR.nodes);
    const nodeExists = new Map<string, boolean>();
    const hasNode = (nodeName: string) => {
      if (!nodesServed) return true;
      if (!nodeExists.has(nodeName))
        nodeExists.set(nodeName, Boolean(this.sim.api.get(GVR.nodes, undefined, nodeName)));
      return nodeExists.get(nodeName) as boolean;
    };
    let missingNode = false;

    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(svc.metadata.labels ?? {}))
      if (k !== SLICE_SERVICE_NAME && k !== SLICE_MANAGED_BY && k !== HEADLESS) labels[k] = v;
    if (!isServiceIpSet(svc)) labels[HEADLESS] = '';
    labels[SLICE_SERVICE_NAME] = name;
    labels[SLICE_MANAGED_BY] = SLICE_CONTROLLER;
    const owner = {
      apiVersion: 'v1',
      kind: 'Service',
      name,
      uid: svc.metadata.uid as string,
      controller: true,
      blockOwnerDeletion: true,
    };
    const newSlice = (addressType: string, ports: Obj[], endpoints: Obj[]): KubeObj => ({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { generateName: `${name}-`, namespace, labels, ownerReferences: [owner] },
      addressType,
      endpoints,
      ports,
    });
    const update = (slice: KubeObj, ports: Obj[], endpoints: Obj[]) => {
      if (
        same(slice.endpoints ?? [], endpoints) &&
        same(slice.ports ?? [], ports) &&
        same(slice.metadata.labels, labels)
      )
        return;
      const next = clone(slice);
      next.metadata.labels = labels;
      next.endpoints = endpoints;
      next.ports = ports;
      writeObj(this.sim, GVR.endpointslices, next);
    };

    for (const addressType of addressTypes) {
      const groups = new Map<string, { ports: Obj[]; endpoints: Obj[] }>();
      for (const pod of pods) {
        if (!shouldBeInEndpoints(pod, true)) continue;
        const ports = this.slicePorts(svc, pod);
        const nodeName = (pod.spec as Obj | undefined)?.nodeName as string | undefined;
        if (nodeName && !publishNotReady && !hasNode(nodeName)) {
          missingNode = true;
          continue;
        }
        const addresses = podIps(pod).filter((ip) => isIpv6(ip) === (addressType === 'IPv6'));
        if (!addresses.length) continue;
        const serving = isPodReady(pod);
        const terminating = Boolean(pod.metadata.deletionTimestamp);
        const hostname = hostnameFor(pod, svc);
        const endpoint: Obj = {
          addresses,
          conditions: { ready: publishNotReady || (serving && !terminating), serving, terminating },
          ...(hostname ? { hostname } : {}),
          targetRef: targetRef(pod),
          ...(nodeName ? { nodeName } : {}),
        };
        const key = stableJson([...ports].sort((a, b) => portOrder(a).localeCompare(portOrder(b))));
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { ports, endpoints: [] }));
        group.endpoints.push(endpoint);
      }
      const mine = existing
        .filter((s) => ownedBy(s) && s.addressType === addressType)
        .sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)));
      const sliceKey = (s: KubeObj) =>
        stableJson(
          (norm((s.ports as Obj[] | undefined) ?? []) as Obj[]).sort((a, b) =>
            portOrder(a).localeCompare(portOrder(b)),
          ),
        );
      const used = new Set<KubeObj>();
      for (const [key, group] of groups) {
        const endpoints = group.endpoints.sort((a, b) =>
          compareAddress(
            { ip: a.addresses[0], targetRef: a.targetRef },
            { ip: b.addresses[0], targetRef: b.targetRef },
          ),
        );
        const reusable = mine.filter(
          (s) => !used.has(s) && sliceKey(s) === stableJson(norm(JSON.parse(key))),
        );
        for (let i = 0; i * MAX_ENDPOINTS_PER_SLICE < endpoints.length; i++) {
          const chunk = endpoints.slice(i * MAX_ENDPOINTS_PER_SLICE, (i + 1) * MAX_ENDPOINTS_PER_SLICE);
          const slice = reusable[i];
          if (slice) {
            used.add(slice);
            update(slice, group.ports, chunk);
          } else
            this.sim.api.create(GVR.endpointslices, namespace, newSlice(addressType, group.ports, chunk));
        }
      }
      if (!groups.size) {
        // The placeholder: one empty slice, so that "no endpoints" is observable.
        const placeholder = mine.find(
          (s) =>
            !used.has(s) &&
            !((s.endpoints as Obj[] | undefined) ?? []).length &&
            !((s.ports as Obj[] | undefined) ?? []).length,
        );
        if (placeholder) {
          used.add(placeholder);
          update(placeholder, [], []);
        } else this.sim.api.create(GVR.endpointslices, namespace, newSlice(addressType, [], []));
      }
      for (const s of mine) if (!used.has(s)) toDelete.push(s);
    }
    for (const s of toDelete) deleteObj(this.sim, GVR.endpointslices, s);
    if (missingNode) this.sim.enqueue(keyOf(SERVICE, namespace, name), MISSING_NODE_RETRY_MS);
  }

  /** getEndpointPorts: every service port the pod serves (headless Services may have none). */
  private slicePorts(svc: KubeObj, pod: KubeObj): Obj[] {
    const out: Obj[] = [];
    for (const sp of ((svc.spec as Obj | undefined)?.ports as Obj[] | undefined) ?? []) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      out.push({
        name: sp.name ?? '',
        port,
        protocol: sp.protocol ?? 'TCP',
        ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}),
      });
    }
    return out;
  }
}
