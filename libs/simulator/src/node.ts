/**
 * The simulated node's Node object, as a kubelet registers and keeps it
 * (pkg/kubelet/kubelet_node_status.go): labels, capacity/allocatable, the
 * pressure conditions and Ready, addresses and nodeInfo. It is created at
 * start, recreated if deleted, and its status restored if someone changes it;
 * labels, annotations and spec others add are kept. Nothing here pretends to
 * be real hardware or a real runtime: the annotation
 * `simulation.oam.dev/simulated: "true"`, the instance type `simulated`, the
 * runtime `simulated://oam-local` and the empty machine IDs say so.
 *
 * When the server does not serve `nodes` (yet), this logs once and does nothing.
 */
import { cpus, totalmem } from 'node:os';
import { deepCopy, jsonEqual, semanticEqual } from '#kube-core';
import type { INodeStatus } from 'kubernetes-models/v1/NodeStatus';
import { SIMULATED_ANNOTATION } from './options.js';
import { GVR, keyOf, statusCode, type Node, type Sim } from './sim.js';
import { createObj, getObj, served, writeObj, writeStatus } from './objects.js';
import { findCondition, timestamp, type Condition } from './values.js';

export const NODE = 'node';
/** The node's only address: loopback, where `oam server` listens. Pods report it as their hostIP. */
export const NODE_IP = '127.0.0.1';
export const KUBELET_VERSION = 'v1.37.2+oam-local';
const MAX_PODS = 110;

export const nodeKey = (name: string) => keyOf(NODE, '', name);

export function nodeArch(): string {
  const arch = { x64: 'amd64', arm64: 'arm64', arm: 'arm', s390x: 's390x', ppc64: 'ppc64le' }[
    process.arch as string
  ];
  return arch ?? 'amd64';
}

export function nodeLabels(name: string): Record<string, string> {
  const arch = nodeArch();
  return {
    'beta.kubernetes.io/arch': arch,
    'beta.kubernetes.io/os': 'linux',
    'kubernetes.io/arch': arch,
    'kubernetes.io/hostname': name,
    'kubernetes.io/os': 'linux',
    'node.kubernetes.io/instance-type': 'simulated',
  };
}

function resources(): Record<string, string> {
  return {
    cpu: String(Math.max(1, cpus().length)),
    memory: `${Math.floor(totalmem() / 1024)}Ki`,
    pods: String(MAX_PODS),
  };
}

const CONDITIONS: Array<Pick<Condition, 'type' | 'status' | 'reason' | 'message'>> = [
  {
    type: 'MemoryPressure',
    status: 'False',
    reason: 'KubeletHasSufficientMemory',
    message: 'kubelet has sufficient memory available',
  },
  {
    type: 'DiskPressure',
    status: 'False',
    reason: 'KubeletHasNoDiskPressure',
    message: 'kubelet has no disk pressure',
  },
  {
    type: 'PIDPressure',
    status: 'False',
    reason: 'KubeletHasSufficientPID',
    message: 'kubelet has sufficient PID available',
  },
  {
    type: 'Ready',
    status: 'True',
    reason: 'KubeletReady',
    message: 'kubelet is posting ready status (simulated by oam-local: no container runs)',
  },
];

/** The status the simulated kubelet posts, keeping transition/heartbeat times while a condition holds. */
export function nodeStatus(name: string, previous: INodeStatus | undefined, now: number): INodeStatus {
  const capacity = resources();
  const conditions = CONDITIONS.map((c) => {
    const prev = findCondition(previous?.conditions, c.type);
    const same = prev && prev.status === c.status && prev.reason === c.reason;
    return {
      ...c,
      lastHeartbeatTime: same ? (prev.lastHeartbeatTime ?? timestamp(now)) : timestamp(now),
      lastTransitionTime: same ? (prev.lastTransitionTime ?? timestamp(now)) : timestamp(now),
    };
  });
  return {
    capacity,
    allocatable: { ...capacity },
    conditions,
    addresses: [
      { type: 'InternalIP', address: NODE_IP },
      { type: 'Hostname', address: name },
    ],
    nodeInfo: {
      machineID: '',
      systemUUID: '',
      bootID: '',
      kernelVersion: '',
      osImage: 'oam-local simulated node',
      containerRuntimeVersion: 'simulated://oam-local',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: nodeArch(),
    },
  };
}

/** The Node as the simulated kubelet registers it (registerWithTaints etc. left out: none). */
export function nodeObject(name: string, now: number): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: nodeLabels(name),
      annotations: {
        [SIMULATED_ANNOTATION]: 'true',
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {},
    status: nodeStatus(name, undefined, now),
  };
}

/** Ensures the Node exists with the simulator's labels, annotation and status. */
export function reconcileNode(sim: Sim, name: string): void {
  if (!served(sim, GVR.nodes)) return;
  const now = sim.now();
  let node = getObj(sim, GVR.nodes, '', name);
  if (!node) {
    try {
      node = createObj(sim, GVR.nodes, undefined, nodeObject(name, now));
      sim.log({ level: 'info', msg: 'registered the simulated node', node: name });
      sim.event(node, 'Normal', 'NodeReady', `Node ${name} status is now: NodeReady`, 'kubelet');
    } catch (err) {
      if (statusCode(err) !== 409) throw err;
      node = getObj(sim, GVR.nodes, '', name);
      if (!node) throw err;
    }
  }
  if (node.metadata.deletionTimestamp) return;
  const want = nodeObject(name, now).metadata;
  const labels = { ...(node.metadata.labels ?? {}), ...want.labels };
  const annotations = { ...(node.metadata.annotations ?? {}), [SIMULATED_ANNOTATION]: 'true' };
  if (
    !jsonEqual(labels, node.metadata.labels ?? {}) ||
    !jsonEqual(annotations, node.metadata.annotations ?? {})
  ) {
    const copy = deepCopy(node);
    copy.metadata.labels = labels;
    copy.metadata.annotations = annotations;
    node = writeObj(sim, GVR.nodes, copy);
  }
  const status = {
    ...node.status,
    ...nodeStatus(name, node.status, now),
  };
  if (!semanticEqual(status, node.status ?? {})) writeStatus(sim, GVR.nodes, node, status);
}
