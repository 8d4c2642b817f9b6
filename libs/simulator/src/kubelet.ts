/**
 * A scheduler and a kubelet for one simulated node. No container runs: a Pod
 * is bound to the node (spec.nodeName, PodScheduled), reported Pending with its
 * containers ContainerCreating, and after `readyDelayMs` Running and Ready with
 * a pod IP, ready container statuses and the five standard conditions.
 * Run-to-completion Pods (restartPolicy Never/OnFailure) exit after
 * `runDurationMs` and end Succeeded (or Failed).
 *
 * Per-pod knobs, as annotations on the Pod (or its template):
 * - `simulation.oam.dev/ready-delay-ms`: this pod's start delay.
 * - `simulation.oam.dev/run-duration-ms`: how long its containers run before they exit.
 * - `simulation.oam.dev/exit-code`: the containers exit with this code (after the run
 *   duration); with restartPolicy Always they restart in CrashLoopBackOff.
 * - `simulation.oam.dev/ready: "false"`: running but not ready (a failing readiness probe);
 *   changing it on a running Pod flips its readiness, as a probe's result would.
 *
 * Whatever would need a real runtime is marked as simulated: the Pod carries
 * `simulation.oam.dev/simulated: "true"`, container and image IDs start with
 * `simulated://` (no image is pulled, so there is no digest), and the kubelet's
 * events keep their reasons (Scheduled, Pulled, Created, Started) but say so.
 *
 * This file is the per-pod reconcile loop; the scheduler's filter and binding
 * are in kubelet-scheduling.ts, the timing knobs in kubelet-lifecycle.ts, the
 * statuses it writes in kubelet-pod-status.ts and kubelet-containers.ts, and
 * its events in kubelet-events.ts.
 */
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { backOffEvent, startedEvents } from './kubelet-events.js';
import {
  backoff,
  exitCode,
  exits,
  readyDelay,
  runDuration,
  stateStart,
  type PodMemory,
} from './kubelet-lifecycle.js';
import { PodIps } from './kubelet-pod-ips.js';
import {
  crashLoopStatus,
  pendingStatus,
  type PodStatus,
  readinessChange,
  runningStatus,
  terminatedStatus,
} from './kubelet-pod-status.js';
import { markSimulated, schedulePod, simulatedNode, type NodeInfo } from './kubelet-scheduling.js';
import { phaseOf } from './pods.js';
import { SIMULATED_ANNOTATION } from './options.js';
import { GVR, keyOf, type Node, type Pod, type Sim } from './sim.js';
import { getObj, writeObj, writeStatus } from './objects.js';

export { imageId, normalizeImage } from './kubelet-containers.js';
export { ANNOTATIONS } from './kubelet-lifecycle.js';
export { PodIps } from './kubelet-pod-ips.js';
export { fitsNode, simulatedNode, unschedulableReason, type NodeInfo } from './kubelet-scheduling.js';

export const POD = 'pod';

/** The simulated node's scheduler and kubelet: binds pods to it and walks each through its states. */
export class Kubelet {
  readonly ips = new PodIps();
  private readonly memory = new Map<string, PodMemory>();
  private readonly defaultNode: NodeInfo;

  constructor(private readonly sim: Sim) {
    this.defaultNode = simulatedNode(sim.opts.nodeName);
  }

  /** The node as the scheduler sees it: its Node object's labels when it has one (a user may label it). */
  get node(): NodeInfo {
    const obj = this.nodeObject();
    return obj
      ? { name: this.defaultNode.name, labels: { ...(obj.metadata.labels ?? {}) } }
      : this.defaultNode;
  }

  private nodeObject(): Node | undefined {
    return getObj(this.sim, GVR.nodes, '', this.defaultNode.name);
  }

  /** Remembers the IPs of pods already running on the node (after a restart). */
  adopt(pods: Pod[]): void {
    for (const p of pods) {
      if (p.spec?.nodeName === this.node.name) this.ips.reserve(p.status?.podIP);
    }
  }

  forget(pod: Pod): void {
    this.memory.delete(pod.metadata.uid as string);
    this.ips.release(pod.status?.podIP);
  }

  reconcile(namespace: string, name: string): void {
    let pod = getObj(this.sim, GVR.pods, namespace, name);
    if (!pod || pod.metadata.deletionTimestamp) return;
    const spec: Partial<IPodSpec> = pod.spec ?? {};
    if (!spec.nodeName) {
      if ((spec.schedulerName ?? 'default-scheduler') !== 'default-scheduler') return;
      const bound = this.schedule(pod);
      if (!bound) return;
      pod = bound;
    }
    if (pod.spec!.nodeName !== this.node.name) return;
    // Pods bound elsewhere (DaemonSet pods, nodeName set by the user) get the mark on first sight.
    if (pod.metadata.annotations?.[SIMULATED_ANNOTATION] !== 'true')
      pod = writeObj(this.sim, GVR.pods, markSimulated(pod));
    const phase = phaseOf(pod);
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const status = pod.status ?? {};
    const now = this.sim.now();
    const uid = pod.metadata.uid as string;
    const key = keyOf(POD, namespace, name);
    if (!status.startTime) {
      this.memory.set(uid, { since: now });
      this.write(pod, pendingStatus(pod, now));
      return this.sim.enqueue(key, readyDelay(this.sim.opts, pod));
    }
    const mem = this.memory.get(uid) ?? { since: stateStart(pod) ?? now };
    this.memory.set(uid, mem);
    const elapsed = now - mem.since;
    if (phase === 'Pending') {
      const wait = readyDelay(this.sim.opts, pod) - elapsed;
      if (wait > 0) return this.sim.enqueue(key, wait);
      mem.since = now;
      this.write(pod, this.runningStatus(pod, now));
      startedEvents(this.sim, pod);
      if (exits(pod)) this.sim.enqueue(key, runDuration(this.sim.opts, pod));
      return;
    }
    // Running: the readiness probe follows the `ready` annotation (a user may flip it at any time).
    const flipped = readinessChange(pod, now);
    if (flipped) this.write(pod, flipped);
    // Containers that exit do so after the run duration; crash-looping ones come back after a back-off.
    if (!exits(pod)) return;
    const main = (status.containerStatuses ?? [])[0];
    if (main?.state?.waiting?.reason === 'CrashLoopBackOff') {
      const wait = this.backoff(main.restartCount) - elapsed;
      if (wait > 0) return this.sim.enqueue(key, wait);
      mem.since = now;
      this.write(pod, this.runningStatus(pod, now));
      return this.sim.enqueue(key, runDuration(this.sim.opts, pod));
    }
    const wait = runDuration(this.sim.opts, pod) - elapsed;
    if (wait > 0) return this.sim.enqueue(key, wait);
    mem.since = now;
    const code = exitCode(pod);
    const policy = spec.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && code === 0)) {
      this.write(pod, terminatedStatus(pod, now, code));
      return;
    }
    const restarted = crashLoopStatus(pod, now, code, (r) => this.backoff(r));
    this.write(pod, restarted);
    const restarts = restarted.containerStatuses![0]?.restartCount ?? 1;
    backOffEvent(this.sim, pod, uid);
    this.sim.enqueue(key, this.backoff(restarts));
  }

  /** The scheduler's part: bind to the node when it fits, or report why not. */
  private schedule(pod: Pod): Pod | undefined {
    return schedulePod(this.sim, pod, this.node, this.nodeObject());
  }

  /** The Running status, with a pod IP from this node's range when the pod has none yet. */
  private runningStatus(pod: Pod, now: number): PodStatus {
    return runningStatus(pod, now, () => this.ips.allocate());
  }

  private backoff(restarts: number): number {
    return backoff(this.sim.opts, restarts);
  }

  private write(pod: Pod, status: PodStatus): void {
    writeStatus(this.sim, GVR.pods, pod, status);
  }
}
