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
 */
import { createHash } from 'node:crypto';
import type { KubeObj } from '../store/types.js';
import { NODE_IP, nodeLabels } from './node.js';
import { conditionsOf, phaseOf } from './pods.js';
import {
  GVR,
  SIMULATED_ANNOTATION,
  SIM_PREFIX,
  clone,
  findCondition,
  getObj,
  keyOf,
  parseTime,
  timestamp,
  writeObj,
  writeStatus,
  type Condition,
  type Obj,
  type Sim,
} from './runtime.js';

export const POD = 'pod';

export const ANNOTATIONS = {
  readyDelayMs: `${SIM_PREFIX}ready-delay-ms`,
  runDurationMs: `${SIM_PREFIX}run-duration-ms`,
  exitCode: `${SIM_PREFIX}exit-code`,
  ready: `${SIM_PREFIX}ready`,
};

const MAX_BACKOFF_MS = 300_000;

interface PodMemory {
  /** When the current container state began, by the simulator's clock (finer than status timestamps). */
  since: number;
}

export interface NodeInfo {
  name: string;
  labels: Record<string, string>;
}

export function simulatedNode(name: string): NodeInfo {
  return { name, labels: nodeLabels(name) };
}

/** The pod IPs in use on the node (10.244.0.0/16, like a kind node's pod CIDR). */
export class PodIps {
  private readonly used = new Set<string>();
  private next = 2;

  reserve(ip: unknown): void {
    if (typeof ip === 'string') this.used.add(ip);
  }

  release(ip: unknown): void {
    if (typeof ip === 'string') this.used.delete(ip);
  }

  allocate(): string {
    for (let i = 0; i < 65_534; i++) {
      const n = this.next;
      this.next = n >= 65_534 ? 2 : n + 1;
      const ip = `10.244.${n >> 8}.${n & 255}`;
      if ((n & 255) === 0 || (n & 255) === 255 || this.used.has(ip)) continue;
      this.used.add(ip);
      return ip;
    }
    throw new Error('simulated node: pod IP range 10.244.0.0/16 exhausted');
  }
}

const numberAnnotation = (pod: KubeObj, key: string): number | undefined => {
  const raw = pod.metadata.annotations?.[key];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** Docker-style normalisation of an image reference, as container runtimes report it. */
export function normalizeImage(image: string): string {
  let ref = image;
  const first = ref.split('/')[0];
  const hasRegistry =
    ref.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (!hasRegistry) ref = `docker.io/${ref.includes('/') ? ref : `library/${ref}`}`;
  const lastPart = ref.slice(ref.lastIndexOf('/') + 1);
  if (!lastPart.includes(':') && !lastPart.includes('@')) ref += ':latest';
  return ref;
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** No image is pulled, so there is no digest to report: the ID says so instead of making one up. */
export function imageId(image: string): string {
  return `simulated://${normalizeImage(image)}`;
}

// ------------------------------------------------------------ scheduling

function nodeSelectorTermMatches(term: Obj, node: NodeInfo): boolean {
  const exprs = [...((term.matchExpressions as Obj[]) ?? [])];
  const fields = (term.matchFields as Obj[]) ?? [];
  if (!exprs.length && !fields.length) return false;
  const check = (e: Obj, value: string | undefined) => {
    const values = (e.values as string[]) ?? [];
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
    exprs.every((e) => check(e, node.labels[e.key as string])) &&
    fields.every((e) => check(e, e.key === 'metadata.name' ? node.name : undefined))
  );
}

/** Whether the pod's nodeSelector and required node affinity admit the node. */
export function fitsNode(podSpec: Obj, node: NodeInfo): boolean {
  for (const [k, v] of Object.entries((podSpec.nodeSelector as Record<string, string>) ?? {})) {
    if (node.labels[k] !== v) return false;
  }
  const terms = podSpec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution
    ?.nodeSelectorTerms as Obj[] | undefined;
  if (terms && !terms.some((t) => nodeSelectorTermMatches(t, node))) return false;
  return true;
}

/** v1helper.TolerationsTolerateTaint for one taint. */
function tolerates(tolerations: Obj[], taint: Obj): boolean {
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
export function unschedulableReason(podSpec: Obj, node: NodeInfo, nodeObject?: KubeObj): string | undefined {
  const tolerations = (podSpec.tolerations as Obj[] | undefined) ?? [];
  const nodeSpec = (nodeObject?.spec ?? {}) as Obj;
  if (
    nodeSpec.unschedulable === true &&
    !tolerates(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })
  )
    return 'node(s) were unschedulable';
  const taint = ((nodeSpec.taints as Obj[] | undefined) ?? []).find(
    (t) => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerates(tolerations, t),
  );
  if (taint) return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
  if (!fitsNode(podSpec, node)) return "node(s) didn't match Pod's node affinity/selector";
  return undefined;
}

// ------------------------------------------------------------ kubelet

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

  private nodeObject(): KubeObj | undefined {
    return this.sim.api.get(GVR.nodes, undefined, this.defaultNode.name);
  }

  /** Remembers the IPs of pods already running on the node (after a restart). */
  adopt(pods: KubeObj[]): void {
    for (const p of pods) {
      if ((p.spec as Obj | undefined)?.nodeName === this.node.name)
        this.ips.reserve((p.status as Obj)?.podIP);
    }
  }

  forget(pod: KubeObj): void {
    this.memory.delete(pod.metadata.uid as string);
    this.ips.release((pod.status as Obj | undefined)?.podIP);
  }

  reconcile(namespace: string, name: string): void {
    let pod = getObj(this.sim, GVR.pods, namespace, name);
    if (!pod || pod.metadata.deletionTimestamp) return;
    const spec = (pod.spec ?? {}) as Obj;
    if (!spec.nodeName) {
      if ((spec.schedulerName ?? 'default-scheduler') !== 'default-scheduler') return;
      const bound = this.schedule(pod);
      if (!bound) return;
      pod = bound;
    }
    if ((pod.spec as Obj).nodeName !== this.node.name) return;
    // Pods bound elsewhere (DaemonSet pods, nodeName set by the user) get the mark on first sight.
    if (pod.metadata.annotations?.[SIMULATED_ANNOTATION] !== 'true')
      pod = writeObj(this.sim, GVR.pods, markSimulated(pod));
    const phase = phaseOf(pod);
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const status = (pod.status ?? {}) as Obj;
    const now = this.sim.now();
    const uid = pod.metadata.uid as string;
    const key = keyOf(POD, namespace, name);
    if (!status.startTime) {
      this.memory.set(uid, { since: now });
      this.write(pod, this.pendingStatus(pod, now));
      return this.sim.enqueue(key, this.readyDelay(pod));
    }
    const mem = this.memory.get(uid) ?? { since: this.stateStart(pod) ?? now };
    this.memory.set(uid, mem);
    const elapsed = now - mem.since;
    if (phase === 'Pending') {
      const wait = this.readyDelay(pod) - elapsed;
      if (wait > 0) return this.sim.enqueue(key, wait);
      mem.since = now;
      this.write(pod, this.runningStatus(pod, now));
      this.startedEvents(pod);
      if (this.exits(pod)) this.sim.enqueue(key, this.runDuration(pod));
      return;
    }
    // Running: the readiness probe follows the `ready` annotation (a user may flip it at any time).
    const flipped = this.readinessChange(pod, now);
    if (flipped) this.write(pod, flipped);
    // Containers that exit do so after the run duration; crash-looping ones come back after a back-off.
    if (!this.exits(pod)) return;
    const main = ((status.containerStatuses as Obj[]) ?? [])[0];
    if (main?.state?.waiting?.reason === 'CrashLoopBackOff') {
      const wait = this.backoff(main.restartCount as number) - elapsed;
      if (wait > 0) return this.sim.enqueue(key, wait);
      mem.since = now;
      this.write(pod, this.runningStatus(pod, now));
      return this.sim.enqueue(key, this.runDuration(pod));
    }
    const wait = this.runDuration(pod) - elapsed;
    if (wait > 0) return this.sim.enqueue(key, wait);
    mem.since = now;
    const code = this.exitCode(pod);
    const policy = spec.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && code === 0)) {
      this.write(pod, this.terminatedStatus(pod, now, code));
      return;
    }
    const restarted = this.crashLoopStatus(pod, now, code);
    this.write(pod, restarted);
    const restarts = ((restarted.containerStatuses as Obj[])[0]?.restartCount as number) ?? 1;
    const c = this.containers(pod)[0];
    this.sim.event(
      pod,
      'Warning',
      'BackOff',
      `Back-off restarting failed container ${c?.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${uid})`,
      'kubelet',
    );
    this.sim.enqueue(key, this.backoff(restarts));
  }

  /** The scheduler's part: bind to the node when it fits, or report why not. */
  private schedule(pod: KubeObj): KubeObj | undefined {
    const spec = pod.spec as Obj;
    const node = this.node;
    const why = unschedulableReason(spec, node, this.nodeObject());
    if (why) {
      const message = `0/1 nodes are available: 1 ${why}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`;
      const status = clone((pod.status ?? {}) as Obj);
      status.phase = 'Pending';
      status.conditions = mergeConditions(
        conditionsOf(pod),
        [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }],
        this.sim.now(),
      );
      this.write(pod, status);
      return undefined;
    }
    const copy = markSimulated(pod);
    (copy.spec as Obj).nodeName = node.name;
    const bound = writeObj(this.sim, GVR.pods, copy);
    this.sim.event(
      bound,
      'Normal',
      'Scheduled',
      `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${node.name}`,
      'default-scheduler',
    );
    return bound;
  }

  private readyDelay(pod: KubeObj): number {
    return numberAnnotation(pod, ANNOTATIONS.readyDelayMs) ?? this.sim.opts.readyDelayMs;
  }

  private runDuration(pod: KubeObj): number {
    return numberAnnotation(pod, ANNOTATIONS.runDurationMs) ?? this.sim.opts.runDurationMs;
  }

  private exitCode(pod: KubeObj): number {
    return Math.trunc(numberAnnotation(pod, ANNOTATIONS.exitCode) ?? 0);
  }

  /** Containers of run-to-completion pods exit; others only when an exit code is simulated. */
  private exits(pod: KubeObj): boolean {
    const policy = (pod.spec as Obj).restartPolicy ?? 'Always';
    return policy !== 'Always' || pod.metadata.annotations?.[ANNOTATIONS.exitCode] !== undefined;
  }

  private backoff(restarts: number): number {
    const base = Math.max(this.sim.opts.readyDelayMs, 10);
    return Math.min(MAX_BACKOFF_MS, base * 2 ** Math.max(0, Math.min(restarts - 1, 20)));
  }

  /** When the current state began, from the status (after a restart of the simulator). */
  private stateStart(pod: KubeObj): number | undefined {
    const status = (pod.status ?? {}) as Obj;
    const main = ((status.containerStatuses as Obj[]) ?? [])[0];
    return (
      parseTime(main?.state?.running?.startedAt) ??
      parseTime(main?.lastState?.terminated?.finishedAt) ??
      parseTime(status.startTime)
    );
  }

  private containers(pod: KubeObj): Obj[] {
    return ((pod.spec as Obj).containers as Obj[]) ?? [];
  }

  private initContainers(pod: KubeObj): Obj[] {
    return ((pod.spec as Obj).initContainers as Obj[]) ?? [];
  }

  private containerId(pod: KubeObj, container: Obj, restarts: number): string {
    return `simulated://${digest(`${pod.metadata.uid}/${container.name}/${restarts}`)}`;
  }

  private base(pod: KubeObj, now: number): Obj {
    const status = clone((pod.status ?? {}) as Obj);
    status.hostIP = NODE_IP;
    status.hostIPs = [{ ip: NODE_IP }];
    status.startTime ??= timestamp(now);
    return status;
  }

  private pendingStatus(pod: KubeObj, now: number): Obj {
    const status = this.base(pod, now);
    status.phase = 'Pending';
    const inits = this.initContainers(pod);
    const containers = this.containers(pod);
    const waiting = (reason: string) => ({ waiting: { reason } });
    if (inits.length) {
      status.initContainerStatuses = inits.map((c) =>
        this.containerStatus(pod, c, waiting('PodInitializing')),
      );
    }
    status.containerStatuses = containers.map((c) =>
      this.containerStatus(pod, c, waiting(inits.length ? 'PodInitializing' : 'ContainerCreating')),
    );
    const unready = `containers with unready status: [${containers.map((c) => c.name).join(' ')}]`;
    status.conditions = mergeConditions(
      conditionsOf(pod),
      [
        { type: 'PodReadyToStartContainers', status: 'False' },
        inits.length
          ? {
              type: 'Initialized',
              status: 'False',
              reason: 'ContainersNotInitialized',
              message: `containers with incomplete status: [${inits.map((c) => c.name).join(' ')}]`,
            }
          : { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: unready },
        { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: unready },
        { type: 'PodScheduled', status: 'True' },
      ],
      now,
    );
    return status;
  }

  private runningStatus(pod: KubeObj, now: number): Obj {
    const status = this.base(pod, now);
    const ready = pod.metadata.annotations?.[ANNOTATIONS.ready] !== 'false';
    status.phase = 'Running';
    if (!status.podIP) {
      const ip = this.ips.allocate();
      status.podIP = ip;
      status.podIPs = [{ ip }];
    }
    const previous = ((status.containerStatuses as Obj[]) ?? []) as Obj[];
    const started = timestamp(now);
    const inits = this.initContainers(pod);
    if (inits.length) {
      status.initContainerStatuses = inits.map((c) =>
        c.restartPolicy === 'Always'
          ? this.containerStatus(pod, c, { running: { startedAt: started } }, { ready: true, started: true })
          : this.containerStatus(pod, c, {
              terminated: { exitCode: 0, reason: 'Completed', startedAt: started, finishedAt: started },
            }),
      );
    }
    status.containerStatuses = this.containers(pod).map((c) => {
      const prev = previous.find((p) => p.name === c.name);
      const restartCount = (prev?.restartCount as number) ?? 0;
      return this.containerStatus(
        pod,
        c,
        { running: { startedAt: started } },
        { ready, started: true, restartCount, lastState: prev?.lastState ?? {} },
      );
    });
    const names = this.containers(pod)
      .map((c) => c.name)
      .join(' ');
    const unready = `containers with unready status: [${names}]`;
    status.conditions = mergeConditions(
      conditionsOf(pod),
      [
        { type: 'PodReadyToStartContainers', status: 'True' },
        { type: 'Initialized', status: 'True' },
        ready
          ? { type: 'Ready', status: 'True' }
          : { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: unready },
        ready
          ? { type: 'ContainersReady', status: 'True' }
          : { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: unready },
        { type: 'PodScheduled', status: 'True' },
      ],
      now,
    );
    return status;
  }

  /** The status after the readiness probe's result changed, or undefined when it did not (or containers are not all running). */
  private readinessChange(pod: KubeObj, now: number): Obj | undefined {
    const status = (pod.status ?? {}) as Obj;
    const statuses = (status.containerStatuses as Obj[] | undefined) ?? [];
    if (!statuses.length || !statuses.every((c) => c.state?.running)) return undefined;
    const ready = pod.metadata.annotations?.[ANNOTATIONS.ready] !== 'false';
    if (
      statuses.every((c) => c.ready === ready) &&
      (findCondition(conditionsOf(pod), 'Ready')?.status === 'True') === ready
    )
      return undefined;
    const next = this.base(pod, now);
    next.containerStatuses = statuses.map((c) => ({ ...c, ready }));
    const unready = `containers with unready status: [${this.containers(pod)
      .map((c) => c.name)
      .join(' ')}]`;
    next.conditions = mergeConditions(
      conditionsOf(pod),
      [
        { type: 'PodReadyToStartContainers', status: 'True' },
        { type: 'Initialized', status: 'True' },
        ready
          ? { type: 'Ready', status: 'True' }
          : { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: unready },
        ready
          ? { type: 'ContainersReady', status: 'True' }
          : { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: unready },
        { type: 'PodScheduled', status: 'True' },
      ],
      now,
    );
    return next;
  }

  private crashLoopStatus(pod: KubeObj, now: number, code: number): Obj {
    const status = this.base(pod, now);
    const previous = ((status.containerStatuses as Obj[]) ?? []) as Obj[];
    status.containerStatuses = this.containers(pod).map((c) => {
      const prev = previous.find((p) => p.name === c.name);
      const restartCount = ((prev?.restartCount as number) ?? 0) + 1;
      const terminated = {
        exitCode: code,
        reason: code === 0 ? 'Completed' : 'Error',
        startedAt: prev?.state?.running?.startedAt ?? timestamp(now),
        finishedAt: timestamp(now),
        containerID: prev?.containerID,
      };
      const backoff = Math.round(this.backoff(restartCount) / 1000);
      const message = `back-off ${backoff}s restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
      return this.containerStatus(
        pod,
        c,
        { waiting: { reason: 'CrashLoopBackOff', message } },
        { restartCount, lastState: { terminated }, containerId: prev?.containerID },
      );
    });
    const unready = `containers with unready status: [${this.containers(pod)
      .map((c) => c.name)
      .join(' ')}]`;
    status.conditions = mergeConditions(
      conditionsOf(pod),
      [
        { type: 'PodReadyToStartContainers', status: 'True' },
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: unready },
        { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: unready },
        { type: 'PodScheduled', status: 'True' },
      ],
      now,
    );
    return status;
  }

  private terminatedStatus(pod: KubeObj, now: number, code: number): Obj {
    const status = this.base(pod, now);
    status.phase = code === 0 ? 'Succeeded' : 'Failed';
    const previous = ((status.containerStatuses as Obj[]) ?? []) as Obj[];
    status.containerStatuses = this.containers(pod).map((c) => {
      const prev = previous.find((p) => p.name === c.name);
      const terminated = {
        exitCode: code,
        reason: code === 0 ? 'Completed' : 'Error',
        startedAt: prev?.state?.running?.startedAt ?? timestamp(now),
        finishedAt: timestamp(now),
        containerID: prev?.containerID,
      };
      return this.containerStatus(
        pod,
        c,
        { terminated },
        {
          restartCount: (prev?.restartCount as number) ?? 0,
          lastState: prev?.lastState ?? {},
          containerId: prev?.containerID,
        },
      );
    });
    const reason = 'PodCompleted';
    status.conditions = mergeConditions(
      conditionsOf(pod),
      [
        { type: 'PodReadyToStartContainers', status: 'False' },
        { type: 'Initialized', status: 'True', reason },
        { type: 'Ready', status: 'False', reason },
        { type: 'ContainersReady', status: 'False', reason },
        { type: 'PodScheduled', status: 'True' },
      ],
      now,
    );
    return status;
  }

  private containerStatus(
    pod: KubeObj,
    c: Obj,
    state: Obj,
    extra: {
      ready?: boolean;
      started?: boolean;
      restartCount?: number;
      lastState?: Obj;
      containerId?: string;
    } = {},
  ): Obj {
    const restartCount = extra.restartCount ?? 0;
    const running = Boolean(state.running || state.terminated);
    const image = String(c.image ?? '');
    return {
      name: c.name,
      state,
      lastState: extra.lastState ?? {},
      ready: extra.ready ?? false,
      restartCount,
      image: normalizeImage(image),
      imageID: running ? imageId(image) : '',
      ...(running ? { containerID: extra.containerId ?? this.containerId(pod, c, restartCount) } : {}),
      started: extra.started ?? false,
    };
  }

  private startedEvents(pod: KubeObj): void {
    for (const c of [...this.initContainers(pod), ...this.containers(pod)]) {
      // The reasons are the kubelet's (tools key on them); the messages must not claim a pull or a process.
      this.sim.event(
        pod,
        'Normal',
        'Pulled',
        `Container image "${c.image}" not pulled: simulated by oam-local, no container runs`,
        'kubelet',
      );
      this.sim.event(pod, 'Normal', 'Created', `Created container: ${c.name} (simulated)`, 'kubelet');
      this.sim.event(
        pod,
        'Normal',
        'Started',
        `Started container ${c.name} (simulated, no process runs)`,
        'kubelet',
      );
    }
  }

  private write(pod: KubeObj, status: Obj): void {
    writeStatus(this.sim, GVR.pods, pod, status);
  }
}

/** A copy of the pod carrying `simulation.oam.dev/simulated: "true"` (it runs on the simulated node). */
function markSimulated(pod: KubeObj): KubeObj {
  const copy = clone(pod);
  copy.metadata.annotations = { ...(copy.metadata.annotations ?? {}), [SIMULATED_ANNOTATION]: 'true' };
  return copy;
}

/** Pod conditions in the kubelet's order, keeping lastTransitionTime when a condition's status did not change. */
function mergeConditions(
  existing: Condition[] | undefined,
  desired: Array<Partial<Condition>>,
  now: number,
): Condition[] {
  const merged = desired.map((d) => {
    const prev = findCondition(existing, d.type as string);
    const same = prev && prev.status === d.status;
    return {
      type: d.type,
      status: d.status,
      lastProbeTime: null,
      lastTransitionTime: same ? prev.lastTransitionTime : timestamp(now),
      ...(d.reason ? { reason: d.reason } : {}),
      ...(d.message ? { message: d.message } : {}),
    } as Condition;
  });
  // Conditions other components own (readiness gates, DisruptionTarget...) stay.
  const owned = new Set(merged.map((c) => c.type));
  return [...merged, ...(existing ?? []).filter((c) => !owned.has(c.type))];
}
