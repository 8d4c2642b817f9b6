/**
 * The Node and EndpointSlice paths against an in-memory API that serves
 * `nodes` and `endpointslices` (the embedded server may not register them yet;
 * endpoints.spec.ts covers the same behaviour over real HTTP once it does).
 */
import type { GroupVersionResource, StoredObject } from '#kube-core';
import { randomUUID } from 'node:crypto';
import type { InProcessApi } from '#kube-server';
import { EndpointsController } from './endpoints.js';
import { reconcileNode } from './node.js';
import { resolveOptions } from './options.js';
import type { Node, Sim } from './sim.js';

class FakeApi implements InProcessApi {
  private readonly objects = new Map<string, StoredObject>();
  private rv = 1;
  writes = 0;

  constructor(private readonly resources: Set<string>) {}

  private key(gvr: GroupVersionResource, ns: string | undefined, name: string) {
    return `${gvr.group}/${gvr.resource}/${ns ?? ''}/${name}`;
  }
  private check(gvr: GroupVersionResource) {
    if (!this.resources.has(gvr.resource))
      throw Object.assign(new Error(`the server could not find the requested resource`), { code: 404 });
  }
  get(gvr: GroupVersionResource, ns: string | undefined, name: string) {
    return this.objects.get(this.key(gvr, ns, name));
  }
  list(gvr: GroupVersionResource, ns?: string, query?: { labelSelector?: string }) {
    this.check(gvr);
    const prefix = `${gvr.group}/${gvr.resource}/${ns ? `${ns}/` : ''}`;
    const want = (query?.labelSelector ?? '')
      .split(',')
      .filter(Boolean)
      .map((s) => s.split('='));
    return [...this.objects.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .map(([, o]) => o)
      .filter((o) => want.every(([k, v]) => o.metadata.labels?.[k] === v));
  }
  create(gvr: GroupVersionResource, ns: string | undefined, body: object) {
    this.check(gvr);
    const obj = structuredClone(body) as StoredObject;
    obj.metadata.name ??= `${obj.metadata.generateName}${Math.random().toString(36).slice(2, 7)}`;
    const key = this.key(gvr, ns, obj.metadata.name as string);
    if (this.objects.has(key)) throw Object.assign(new Error('exists'), { code: 409 });
    obj.metadata.uid = randomUUID();
    obj.metadata.resourceVersion = String(this.rv++);
    this.objects.set(key, obj);
    this.writes++;
    return obj;
  }
  update(gvr: GroupVersionResource, ns: string | undefined, name: string, body: object) {
    this.check(gvr);
    const obj = structuredClone(body) as StoredObject;
    obj.metadata.resourceVersion = String(this.rv++);
    this.objects.set(this.key(gvr, ns, name), obj);
    this.writes++;
    return obj;
  }
  patch(): StoredObject {
    throw new Error('not used');
  }
  delete(gvr: GroupVersionResource, ns: string | undefined, name: string) {
    this.objects.delete(this.key(gvr, ns, name));
    this.writes++;
  }
}

const NODES = { group: '', version: 'v1', resource: 'nodes' };
const SLICES = { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' };
const PODS = { group: '', version: 'v1', resource: 'pods' };
const SERVICES = { group: '', version: 'v1', resource: 'services' };
const ALL = ['pods', 'services', 'endpoints', 'endpointslices', 'nodes', 'events'];

function fakeSim(resources = ALL) {
  const api = new FakeApi(new Set(resources));
  const logs: Array<Record<string, unknown>> = [];
  const memory = new Map<string, unknown>();
  const enqueued: Array<[string, number | undefined]> = [];
  const sim: Sim = {
    api,
    log: (e) => logs.push(e),
    opts: resolveOptions({}),
    now: Date.now,
    enqueue: (key, after) => enqueued.push([key, after]),
    memory: <T>(name: string, init: () => T) => {
      if (!memory.has(name)) memory.set(name, init());
      return memory.get(name) as T;
    },
    event: () => undefined,
  };
  return { sim, api, logs, enqueued };
}

const NODE = 'oam-local-simulated';

describe('the simulated Node', () => {
  it('is registered Ready, kept, and recreated when deleted', () => {
    const { sim, api } = fakeSim();
    reconcileNode(sim, NODE);
    const node = api.get(NODES, undefined, NODE) as Node;
    expect(node.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': NODE,
      'kubernetes.io/os': 'linux',
      'kubernetes.io/arch': expect.any(String),
      'node.kubernetes.io/instance-type': 'simulated',
    });
    expect(node.metadata.annotations).toMatchObject({ 'simulation.oam.dev/simulated': 'true' });
    const status = node.status!;
    expect(status.conditions!.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'True',
      reason: 'KubeletReady',
    });
    expect(status.capacity).toEqual({
      cpu: expect.any(String),
      memory: expect.stringMatching(/Ki$/),
      pods: '110',
    });
    expect(status.allocatable).toEqual(status.capacity);
    expect(status.nodeInfo).toMatchObject({ kubeletVersion: 'v1.37.2+oam-local', operatingSystem: 'linux' });
    expect(status.addresses).toEqual([
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: NODE },
    ]);

    // Idempotent; a user's label stays.
    const writes = api.writes;
    reconcileNode(sim, NODE);
    expect(api.writes).toBe(writes);
    api.update(NODES, undefined, NODE, {
      ...node,
      metadata: { ...node.metadata, labels: { ...node.metadata.labels, role: 'db' } },
    });
    reconcileNode(sim, NODE);
    expect((api.get(NODES, undefined, NODE) as StoredObject).metadata.labels?.role).toBe('db');

    api.delete(NODES, undefined, NODE);
    reconcileNode(sim, NODE);
    expect(api.get(NODES, undefined, NODE)?.metadata.uid).not.toBe(node.metadata.uid);
  });

  it('logs once and does nothing when the server does not serve nodes', () => {
    const { sim, logs } = fakeSim(ALL.filter((r) => r !== 'nodes'));
    reconcileNode(sim, NODE);
    reconcileNode(sim, NODE);
    expect(logs.filter((l) => String(l.msg).startsWith('nodes resource not served'))).toHaveLength(1);
  });
});

describe('EndpointSlices', () => {
  const pod = (name: string, opts: { ip?: string; ready?: boolean; phase?: string; node?: string } = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: 'web' } },
    spec: {
      nodeName: opts.node ?? NODE,
      containers: [{ name: 'main', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }],
    },
    status: {
      phase: opts.phase ?? 'Running',
      ...(opts.ip ? { podIP: opts.ip, podIPs: [{ ip: opts.ip }] } : {}),
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  });

  it('groups the selected pods into slices owned by the service, with a placeholder when empty', () => {
    const { sim, api, enqueued } = fakeSim();
    reconcileNode(sim, NODE);
    const svc = api.create(SERVICES, 'default', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default', labels: { tier: 'front' } },
      spec: {
        clusterIP: '10.96.0.10',
        ipFamilies: ['IPv4'],
        selector: { app: 'web' },
        ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
      },
    });
    api.create(PODS, 'default', pod('a', { ip: '10.244.0.2' }));
    api.create(PODS, 'default', pod('b', { ip: '10.244.0.3', ready: false }));
    api.create(PODS, 'default', pod('c', { ip: '10.244.0.4', phase: 'Succeeded' }));
    api.create(PODS, 'default', pod('d'));
    api.create(PODS, 'default', pod('e', { ip: '10.244.0.5', node: 'gone' }));
    const ctl = new EndpointsController(sim);
    ctl.reconcile('default', 'web');

    const slices = api.list(SLICES, 'default');
    expect(slices).toHaveLength(1);
    const [slice] = slices;
    expect(slice.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slice.metadata.labels).toEqual({
      tier: 'front',
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Service',
        name: 'web',
        uid: svc.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(slice.endpoints).toEqual([
      {
        addresses: ['10.244.0.2'],
        conditions: { ready: true, serving: true, terminating: false },
        nodeName: NODE,
        targetRef: { kind: 'Pod', namespace: 'default', name: 'a', uid: expect.any(String) },
      },
      {
        addresses: ['10.244.0.3'],
        conditions: { ready: false, serving: false, terminating: false },
        nodeName: NODE,
        targetRef: { kind: 'Pod', namespace: 'default', name: 'b', uid: expect.any(String) },
      },
    ]);
    // The pod on a missing Node is left out and the service retried.
    expect(enqueued).toContainEqual(['service/default/web', 1000]);

    const writes = api.writes;
    ctl.reconcile('default', 'web');
    expect(api.writes).toBe(writes);

    for (const name of ['a', 'b', 'c', 'd', 'e']) api.delete(PODS, 'default', name);
    ctl.reconcile('default', 'web');
    const after = api.list(SLICES, 'default');
    expect(after).toHaveLength(1);
    // As kube-controller-manager does (seen on v1.37): the slice (other ports) is not deleted while
    // a placeholder is created; it is updated into the empty placeholder and keeps its name.
    expect(after[0].metadata.name).toBe(slice.metadata.name);
    expect(after[0].endpoints).toEqual([]);
    expect(after[0].ports).toEqual([]);

    // And back: the placeholder becomes the first real slice by one update, nothing created or
    // deleted (the other write is the Endpoints object).
    api.create(PODS, 'default', pod('f', { ip: '10.244.0.6' }));
    const beforeBack = api.writes;
    ctl.reconcile('default', 'web');
    const back = api.list(SLICES, 'default');
    expect(back).toHaveLength(1);
    expect(back[0].metadata.name).toBe(slice.metadata.name);
    expect(back[0].endpoints).toHaveLength(1);
    expect(back[0].ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(api.writes - beforeBack).toBe(2);
  });
});
