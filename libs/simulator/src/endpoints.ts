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
import { deepCopy } from '#kube-core';
import type { IEndpointAddress } from 'kubernetes-models/v1/EndpointAddress';
import { isPodReady } from './pods.js';
import { GVR, keyOf, type Pod, type Service, type Sim } from './sim.js';
import { createObj, deleteObj, getObj, listObjs, served, writeObj } from './objects.js';
import { syncEndpointSlices } from './endpoint-slices.js';
import {
  SERVICE,
  ENDPOINTS_MANAGED_BY,
  ENDPOINTS_CONTROLLER,
  HEADLESS,
  selectorOf,
  matches,
  isServiceIpSet,
  isIpv6,
  podIps,
  shouldBeInEndpoints,
  hostnameFor,
  findPort,
  targetRef,
  same,
  type AddressEntry,
  repackSubsets,
  serviceFamily,
} from './endpoints-shared.js';
import { addTo, labelKey, removeFrom } from '#kube-server';

export {
  ENDPOINTS_CONTROLLER,
  ENDPOINTS_MANAGED_BY,
  SERVICE,
  SLICE_CONTROLLER,
  SLICE_MANAGED_BY,
  SLICE_SERVICE_NAME,
  findPort,
  repackSubsets,
} from './endpoints-shared.js';

/**
 * Keeps the Services' endpoints. Pods wake the Services that select them now,
 * and those that selected them at their last sync (a relabelled pod leaves).
 */
export class EndpointsController {
  /** Selectors of the Services that have one, by namespace and name. */
  private readonly selectors = new Map<string, Map<string, Record<string, string>>>();
  /** The pods each Service selected at its last sync ("<ns>/<svc>" → pod names). */
  private readonly members = new Map<string, Set<string>>();
  /** "<ns>\0<key>\0<value>" → the Services whose selector requires that label (its first pair). */
  private readonly byLabel = new Map<string, Set<string>>();
  /** "<ns>/<pod>" → the Services that selected it at their last sync (the reverse of `members`). */
  private readonly memberOf = new Map<string, Set<string>>();

  constructor(private readonly sim: Sim) {}

  /** Indexes a Service (from an event or the initial list); returns the key to sync. */
  serviceChanged(svc: Service, deleted: boolean): string {
    const ns = svc.metadata.namespace ?? '';
    const name = svc.metadata.name as string;
    let byName = this.selectors.get(ns);
    const selector = deleted ? undefined : selectorOf(svc);
    const before = byName?.get(name);
    if (before) removeFrom(this.byLabel, firstLabel(ns, before), name);
    if (selector) {
      if (!byName) this.selectors.set(ns, (byName = new Map()));
      byName.set(name, selector);
      addTo(this.byLabel, firstLabel(ns, selector), name);
    } else {
      byName?.delete(name);
      if (byName && !byName.size) this.selectors.delete(ns);
    }
    return keyOf(SERVICE, ns, name);
  }

  /** The Services a pod's change may affect. */
  podChanged(pod: Pod, deleted: boolean): string[] {
    const ns = pod.metadata.namespace ?? '';
    const name = pod.metadata.name as string;
    // Found by index, not by trying every Service of the namespace: those whose selector's first
    // label the pod has, and those it was a member of.
    const candidates = new Set<string>(this.memberOf.get(`${ns}/${name}`));
    if (!deleted)
      for (const [k, v] of Object.entries(pod.metadata.labels ?? {}))
        for (const svc of this.byLabel.get(labelKey(ns, k, v)) ?? []) candidates.add(svc);
    const keys: string[] = [];
    const byName = this.selectors.get(ns);
    for (const svc of candidates) {
      const selector = byName?.get(svc);
      if (!selector) continue;
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

  /** Records the pods a Service selected at this sync (none: undefined), in both directions. */
  private setMembers(namespace: string, svc: string, pods: Set<string> | undefined): void {
    const key = `${namespace}/${svc}`;
    for (const pod of this.members.get(key) ?? []) removeFrom(this.memberOf, `${namespace}/${pod}`, svc);
    if (!pods) {
      this.members.delete(key);
      return;
    }
    this.members.set(key, pods);
    for (const pod of pods) addTo(this.memberOf, `${namespace}/${pod}`, svc);
  }

  reconcile(namespace: string, name: string): void {
    const svc = getObj(this.sim, GVR.services, namespace, name);
    if (!svc) {
      this.setMembers(namespace, name, undefined);
      // syncService on a deleted Service deletes the Endpoints of its name, whoever wrote them,
      // as the real controller does; EndpointSlices go with their owner (garbage collection).
      const stale = getObj(this.sim, GVR.endpoints, namespace, name);
      if (stale) deleteObj(this.sim, GVR.endpoints, stale);
      return;
    }
    this.serviceChanged(svc, false);
    const selector = selectorOf(svc);
    const spec = svc.spec ?? {};
    if (spec.type === 'ExternalName' || !selector || svc.metadata.deletionTimestamp) {
      this.setMembers(namespace, name, undefined);
      return;
    }
    // Selected pods carry the selector's first label: only those are read.
    const [first] = Object.entries(selector);
    const pods = listObjs(this.sim, GVR.pods, namespace, (p) => matches(selector, p.metadata.labels), {
      label: first,
    });
    this.setMembers(namespace, name, new Set(pods.map((p) => p.metadata.name as string)));
    if (served(this.sim, GVR.endpoints)) this.syncEndpoints(svc, pods);
    if (served(this.sim, GVR.endpointslices)) syncEndpointSlices(this.sim, svc, pods);
  }

  /** The IP family whose addresses the Service gets (podToEndpointAddressForService). */

  private syncEndpoints(svc: Service, pods: Pod[]): void {
    const spec = svc.spec ?? {};
    const publishNotReady = spec.publishNotReadyAddresses === true;
    const servicePorts = spec.ports ?? [];
    const entries: AddressEntry[] = [];
    for (const pod of pods) {
      if (!shouldBeInEndpoints(pod, publishNotReady)) continue;
      const wantV6 = serviceFamily(svc, pod) === 'IPv6';
      const ip = podIps(pod).find((a) => isIpv6(a) === wantV6);
      if (!ip) continue;
      const hostname = hostnameFor(pod, svc);
      const address: IEndpointAddress = {
        ip,
        ...(hostname ? { hostname } : {}),
        nodeName: pod.spec?.nodeName ?? '',
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
      createObj(this.sim, GVR.endpoints, namespace, {
        apiVersion: 'v1',
        kind: 'Endpoints',
        metadata: { name, namespace, labels },
        ...(subsets.length ? { subsets } : {}),
      });
      return;
    }
    if (same(current.subsets ?? [], subsets) && same(current.metadata.labels ?? {}, labels)) return;
    const next = deepCopy(current);
    next.metadata.labels = labels;
    if (subsets.length) next.subsets = subsets;
    else delete next.subsets;
    writeObj(this.sim, GVR.endpoints, next);
  }
}

/** The index key of a (non-empty) selector: its first label. */
const firstLabel = (namespace: string, selector: Record<string, string>) => {
  const [[key, value]] = Object.entries(selector);
  return labelKey(namespace, key, value);
};
