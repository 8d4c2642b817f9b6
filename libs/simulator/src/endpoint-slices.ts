/** The EndpointSlice controller's sync of one Service (see endpoints.ts). */
import { stableStringify } from '#kube-core';
import type { IEndpoint } from 'kubernetes-models/discovery.k8s.io/v1/Endpoint';
import type { IEndpointPort } from 'kubernetes-models/discovery.k8s.io/v1/EndpointPort';
import { isPodReady } from './pods.js';
import { GVR, keyOf, type EndpointSlice, type Pod, type Service, type Sim } from './sim.js';
import { createObj, deleteObj, served, writeObj } from './objects.js';
import {
  SERVICE,
  SLICE_SERVICE_NAME,
  SLICE_MANAGED_BY,
  SLICE_CONTROLLER,
  HEADLESS,
  MAX_ENDPOINTS_PER_SLICE,
  MISSING_NODE_RETRY_MS,
  isServiceIpSet,
  isIpv6,
  podIps,
  shouldBeInEndpoints,
  hostnameFor,
  findPort,
  targetRef,
  norm,
  same,
  compareAddress,
  portOrder,
  serviceFamily,
  type PortLike,
} from './endpoints-shared.js';

type AddressType = EndpointSlice['addressType'];

export function syncEndpointSlices(sim: Sim, svc: Service, pods: Pod[]): void {
  const namespace = svc.metadata.namespace as string;
  const name = svc.metadata.name as string;
  const spec = svc.spec ?? {};
  const publishNotReady = spec.publishNotReadyAddresses === true;
  const families = (spec.ipFamilies ?? []).filter((f) => f === 'IPv4' || f === 'IPv6');
  const addressTypes: AddressType[] = families.length ? families : [serviceFamily(svc)];

  const selected = sim.api.list(GVR.endpointslices, namespace, {
    labelSelector: `${SLICE_SERVICE_NAME}=${name},${SLICE_MANAGED_BY}=${SLICE_CONTROLLER}`,
  }) as EndpointSlice[];
  const existing = selected.filter((s) => !s.metadata.deletionTimestamp);
  const ownedBy = (slice: EndpointSlice) =>
    (slice.metadata.ownerReferences ?? []).some(
      (o) => o.uid === svc.metadata.uid && o.kind === 'Service' && o.apiVersion === 'v1',
    );
  const toCreate: EndpointSlice[] = [];
  const toDelete = existing.filter((s) => !ownedBy(s) || !addressTypes.includes(s.addressType));

  // Pods on a Node that does not exist are left out until it does (unless not-ready addresses are published).
  const nodesServed = served(sim, GVR.nodes);
  const nodeExists = new Map<string, boolean>();
  const hasNode = (nodeName: string) => {
    if (!nodesServed) return true;
    if (!nodeExists.has(nodeName))
      nodeExists.set(nodeName, Boolean(sim.api.get(GVR.nodes, undefined, nodeName)));
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
  const newSlice = (
    addressType: AddressType,
    ports: IEndpointPort[],
    endpoints: IEndpoint[],
  ): EndpointSlice => ({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { generateName: `${name}-`, namespace, labels, ownerReferences: [owner] },
    addressType,
    endpoints,
    ports,
  });
  const update = (slice: EndpointSlice, ports: IEndpointPort[], endpoints: IEndpoint[]) => {
    if (
      same(slice.endpoints ?? [], endpoints) &&
      same(slice.ports ?? [], ports) &&
      same(slice.metadata.labels, labels)
    )
      return;
    writeObj(sim, GVR.endpointslices, {
      ...slice,
      metadata: { ...slice.metadata, labels },
      endpoints,
      ports,
    });
  };

  for (const addressType of addressTypes) {
    const groups = new Map<string, { ports: IEndpointPort[]; endpoints: IEndpoint[] }>();
    for (const pod of pods) {
      if (!shouldBeInEndpoints(pod, true)) continue;
      const ports = slicePorts(svc, pod);
      const nodeName = pod.spec?.nodeName;
      if (nodeName && !publishNotReady && !hasNode(nodeName)) {
        missingNode = true;
        continue;
      }
      const addresses = podIps(pod).filter((ip) => isIpv6(ip) === (addressType === 'IPv6'));
      if (!addresses.length) continue;
      const serving = isPodReady(pod);
      const terminating = Boolean(pod.metadata.deletionTimestamp);
      const hostname = hostnameFor(pod, svc);
      const endpoint: IEndpoint = {
        addresses,
        conditions: { ready: publishNotReady || (serving && !terminating), serving, terminating },
        ...(hostname ? { hostname } : {}),
        targetRef: targetRef(pod),
        ...(nodeName ? { nodeName } : {}),
      };
      const key = stableStringify([...ports].sort((a, b) => portOrder(a).localeCompare(portOrder(b))));
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { ports, endpoints: [] }));
      group.endpoints.push(endpoint);
    }
    const mine = existing
      .filter((s) => ownedBy(s) && s.addressType === addressType)
      .sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)));
    const sliceKey = (s: EndpointSlice) =>
      stableStringify(
        (norm(s.ports ?? []) as PortLike[]).sort((a, b) => portOrder(a).localeCompare(portOrder(b))),
      );
    const used = new Set<EndpointSlice>();
    for (const [key, group] of groups) {
      const endpoints = group.endpoints.sort((a, b) =>
        compareAddress(
          { ip: a.addresses[0], targetRef: a.targetRef },
          { ip: b.addresses[0], targetRef: b.targetRef },
        ),
      );
      const reusable = mine.filter(
        (s) => !used.has(s) && sliceKey(s) === stableStringify(norm(JSON.parse(key))),
      );
      for (let i = 0; i * MAX_ENDPOINTS_PER_SLICE < endpoints.length; i++) {
        const chunk = endpoints.slice(i * MAX_ENDPOINTS_PER_SLICE, (i + 1) * MAX_ENDPOINTS_PER_SLICE);
        const slice = reusable[i];
        if (slice) {
          used.add(slice);
          update(slice, group.ports, chunk);
        } else toCreate.push(newSlice(addressType, group.ports, chunk));
      }
    }
    if (!groups.size) {
      // The placeholder: one empty slice, so that "no endpoints" is observable.
      const placeholder = mine.find(
        (s) => !used.has(s) && !(s.endpoints ?? []).length && !(s.ports ?? []).length,
      );
      if (placeholder) {
        used.add(placeholder);
        update(placeholder, [], []);
      } else toCreate.push(newSlice(addressType, [], []));
    }
    for (const s of mine) if (!used.has(s)) toDelete.push(s);
  }
  // kube's finalize: a slice to create takes the place of one to delete (same address type, this
  // Service's) by updating it, so the placeholder becomes the first real slice instead of being
  // deleted while another is created.
  for (let i = 0; i < toDelete.length && toCreate.length;) {
    const replaced = toDelete[i];
    const slice = toCreate[toCreate.length - 1];
    if (replaced.addressType === slice.addressType && ownedBy(replaced)) {
      toCreate.pop();
      toDelete.splice(i, 1);
      update(replaced, slice.ports as IEndpointPort[], slice.endpoints);
    } else i++;
  }
  for (const slice of toCreate) createObj(sim, GVR.endpointslices, namespace, slice);
  for (const s of toDelete) deleteObj(sim, GVR.endpointslices, s);
  if (missingNode) sim.enqueue(keyOf(SERVICE, namespace, name), MISSING_NODE_RETRY_MS);
}

/** getEndpointPorts: every service port the pod serves (headless Services may have none). */
function slicePorts(svc: Service, pod: Pod): IEndpointPort[] {
  const out: IEndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
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
