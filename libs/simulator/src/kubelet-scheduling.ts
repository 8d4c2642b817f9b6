/**
 * The scheduler's part of the simulation: whether a pod fits the one simulated
 * node (nodeSelector, required node affinity, taints and cordoning, as the
 * filter plugins decide for a single node), and binding it there or reporting
 * PodScheduled=False/Unschedulable with the scheduler's message.
 */
import { deepCopy } from '#kube-core';
import type { INodeSelectorRequirement } from 'kubernetes-models/v1/NodeSelectorRequirement';
import type { INodeSelectorTerm } from 'kubernetes-models/v1/NodeSelectorTerm';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { ITaint } from 'kubernetes-models/v1/Taint';
import type { IToleration } from 'kubernetes-models/v1/Toleration';
import { scheduledEvent } from './kubelet-events.js';
import { mergeConditions, type PodStatus } from './kubelet-pod-status.js';
import { nodeLabels } from './node.js';
import { conditionsOf } from './pods.js';
import { SIMULATED_ANNOTATION } from './options.js';
import { GVR, type Node, type Pod, type Sim } from './sim.js';
import { writeObj, writeStatus } from './objects.js';

export interface NodeInfo {
  name: string;
  labels: Record<string, string>;
}

export function simulatedNode(name: string): NodeInfo {
  return { name, labels: nodeLabels(name) };
}

function nodeSelectorTermMatches(term: INodeSelectorTerm, node: NodeInfo): boolean {
  const exprs = [...(term.matchExpressions ?? [])];
  const fields = term.matchFields ?? [];
  if (!exprs.length && !fields.length) return false;
  const check = (e: INodeSelectorRequirement, value: string | undefined) => {
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        return value !== undefined && values.includes(value);
      case 'NotIn':
        return value === undefined || !values.includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
      case 'Gt':
        return value !== undefined && Number(value) > Number(values[0]);
      case 'Lt':
        return value !== undefined && Number(value) < Number(values[0]);
      default:
        return false;
    }
  };
  return (
    exprs.every((e) => check(e, node.labels[e.key])) &&
    fields.every((e) => check(e, e.key === 'metadata.name' ? node.name : undefined))
  );
}

/** Whether the pod's nodeSelector and required node affinity admit the node. */
export function fitsNode(podSpec: Partial<IPodSpec>, node: NodeInfo): boolean {
  for (const [k, v] of Object.entries(podSpec.nodeSelector ?? {})) {
    if (node.labels[k] !== v) return false;
  }
  const terms =
    podSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms && !terms.some((t) => nodeSelectorTermMatches(t, node))) return false;
  return true;
}

/** v1helper.TolerationsTolerateTaint for one taint. */
function tolerates(tolerations: IToleration[], taint: Omit<ITaint, 'value'> & { value?: string }): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return !t.key || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

/**
 * Why the scheduler would not place the pod on the node (the filter plugins that
 * apply to one node: NodeUnschedulable, TaintToleration, NodeAffinity), or undefined.
 */
export function unschedulableReason(
  podSpec: Partial<IPodSpec>,
  node: NodeInfo,
  nodeObject?: Node,
): string | undefined {
  const tolerations = podSpec.tolerations ?? [];
  const nodeSpec = nodeObject?.spec ?? {};
  if (
    nodeSpec.unschedulable === true &&
    !tolerates(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })
  )
    return 'node(s) were unschedulable';
  const taint = (nodeSpec.taints ?? []).find(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(tolerations, t),
  );
  if (taint) return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
  if (!fitsNode(podSpec, node)) return "node(s) didn't match Pod's node affinity/selector";
  return undefined;
}

/**
 * The pod carrying `simulation.oam.dev/simulated: "true"` (it runs on the simulated node): a new
 * top level and metadata over the stored (frozen) rest, which the write shares instead of copying.
 */
export function markSimulated(pod: Pod): Pod {
  const annotations = { ...(pod.metadata.annotations ?? {}), [SIMULATED_ANNOTATION]: 'true' };
  return { ...pod, metadata: { ...pod.metadata, annotations } };
}

/** Binds the pod to the node when it fits (returning the bound pod), or records why not and returns undefined. */
export function schedulePod(
  sim: Sim,
  pod: Pod,
  node: NodeInfo,
  nodeObject: Node | undefined,
): Pod | undefined {
  const spec = pod.spec!;
  const why = unschedulableReason(spec, node, nodeObject);
  if (why) {
    const message = `0/1 nodes are available: 1 ${why}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`;
    const status: PodStatus = deepCopy(pod.status ?? {});
    status.phase = 'Pending';
    status.conditions = mergeConditions(
      conditionsOf(pod),
      [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }],
      sim.now(),
    );
    writeStatus(sim, GVR.pods, pod, status);
    return undefined;
  }
  const bound = writeObj(sim, GVR.pods, { ...markSimulated(pod), spec: { ...spec, nodeName: node.name } });
  scheduledEvent(sim, bound, pod, node.name);
  return bound;
}
