/**
 * The machinery the simulated controllers share: a work queue of object keys
 * (deduplicated, delayed, retried with backoff, all timers cancelled on stop),
 * typed access to the in-process API, and small helpers every controller needs.
 */
import { randomBytes } from 'node:crypto';
import { realClock, type Clock, type TimerHandle } from '#kube-core';
import type { Logger } from '../core.js';
import type { Gvr, InProcessApi } from '../controllers/in-process.js';
import type { KubeObj, OwnerReference } from '../store/types.js';

export type Obj = Record<string, any>;

export const GVR = {
  pods: { group: '', version: 'v1', resource: 'pods' },
  events: { group: '', version: 'v1', resource: 'events' },
  pvcs: { group: '', version: 'v1', resource: 'persistentvolumeclaims' },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
  replicasets: { group: 'apps', version: 'v1', resource: 'replicasets' },
  statefulsets: { group: 'apps', version: 'v1', resource: 'statefulsets' },
  daemonsets: { group: 'apps', version: 'v1', resource: 'daemonsets' },
  controllerrevisions: { group: 'apps', version: 'v1', resource: 'controllerrevisions' },
  jobs: { group: 'batch', version: 'v1', resource: 'jobs' },
  cronjobs: { group: 'batch', version: 'v1', resource: 'cronjobs' },
  hpas: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
  services: { group: '', version: 'v1', resource: 'services' },
  endpoints: { group: '', version: 'v1', resource: 'endpoints' },
  endpointslices: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' },
  nodes: { group: '', version: 'v1', resource: 'nodes' },
} satisfies Record<string, Gvr>;

/** Marks what the simulator made up (the Node, Pods it runs): `simulation.oam.dev/simulated: "true"`. */
export const SIMULATED_ANNOTATION = 'simulation.oam.dev/simulated';

/** Where the simulator's own knobs live (annotations a user or a test may set). */
export const SIM_PREFIX = 'simulation.oam.dev/';

export interface SimulatorOptions {
  /** Time from a Pod's scheduling to Running and Ready (default 1000 ms). */
  readyDelayMs?: number;
  /** Time a run-to-completion Pod (restartPolicy Never/OnFailure) runs before it exits (default: readyDelayMs). */
  runDurationMs?: number;
  /** The one simulated node every Pod lands on (default "oam-local-simulated"). */
  nodeName?: string;
  /** Record core/v1 Events the way the real controllers and kubelet do (default true). */
  events?: boolean;
  /**
   * Where time comes from: every delay (start and run durations, back-offs, retries, the HPA's
   * stabilization window, CronJob schedules) is a timer on this clock and every timestamp it
   * writes reads it. Default: the wall clock; tests pass a FakeClock and step it.
   */
  clock?: Clock;
}

export type ResolvedOptions = Required<SimulatorOptions>;

export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  const readyDelayMs = Math.max(0, options.readyDelayMs ?? 1000);
  return {
    readyDelayMs,
    runDurationMs: Math.max(0, options.runDurationMs ?? readyDelayMs),
    nodeName: options.nodeName ?? 'oam-local-simulated',
    events: options.events ?? true,
    clock: options.clock ?? realClock,
  };
}

/** What a reconcile function gets: the API, the options, the log, and a way to be woken again. */
export interface Sim {
  api: InProcessApi;
  log: Logger;
  opts: ResolvedOptions;
  now(): number;
  /** Queue a key now, or after `afterMs` (the earliest pending wake-up wins). */
  enqueue(key: string, afterMs?: number): void;
  /** Per-controller memory that lives as long as the simulator (cleared on stop). */
  memory<T>(name: string, init: () => T): T;
  event(
    involved: KubeObj,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    component: string,
  ): void;
}

/** Keys are "<kind>/<namespace>/<name>". */
export const keyOf = (kind: string, namespace: string, name: string) => `${kind}/${namespace}/${name}`;
export function splitKey(key: string): { kind: string; namespace: string; name: string } {
  const [kind, namespace, ...rest] = key.split('/');
  return { kind, namespace, name: rest.join('/') };
}

/** The API status code of an error thrown by the in-process API (ApiError has `code`). */
export function statusCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Deduplicating work queue: a key is processed at most once per drain, every
 * drain runs on its own macrotask (so writes never nest inside a store event),
 * failures retry with per-key exponential backoff, and stop() cancels everything.
 */
export class WorkQueue {
  private readonly dirty = new Set<string>();
  private readonly timers = new Map<string, { at: number; timer: TimerHandle }>();
  private readonly failures = new Map<string, number>();
  private immediate?: NodeJS.Immediate;
  private stopped = false;

  /**
   * Delays run on `clock`; a drain always runs on the next macrotask (not a clock timer), so with a
   * FakeClock queued work still happens on its own and only delayed wake-ups wait for the test.
   */
  constructor(
    private readonly handle: (key: string) => void,
    private readonly log: Logger,
    private readonly clock: Clock = realClock,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.dirty.add(key);
    this.immediate ??= setImmediate(() => this.drain());
  }

  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    if (ms <= 0) return this.add(key);
    const at = this.clock.now() + ms;
    const pending = this.timers.get(key);
    if (pending && pending.at <= at) return;
    if (pending) this.clock.clearTimeout(pending.timer);
    const timer = this.clock.setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, ms);
    (timer as { unref?: () => void }).unref?.();
    this.timers.set(key, { at, timer });
  }

  /** Whether a key is queued for the next drain right now (delayed wake-ups aside). */
  get busy(): boolean {
    return !this.stopped && (this.dirty.size > 0 || this.immediate !== undefined);
  }

  /** Resolves once nothing is queued right now (timers may still be pending). */
  async idle(): Promise<void> {
    while (this.busy) await new Promise((r) => setImmediate(r));
  }

  stop(): void {
    this.stopped = true;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = undefined;
    for (const { timer } of this.timers.values()) this.clock.clearTimeout(timer);
    this.timers.clear();
    this.dirty.clear();
  }

  private drain(): void {
    this.immediate = undefined;
    const keys = [...this.dirty];
    this.dirty.clear();
    for (const key of keys) {
      if (this.stopped) return;
      try {
        this.handle(key);
        this.failures.delete(key);
      } catch (err) {
        const attempt = (this.failures.get(key) ?? 0) + 1;
        this.failures.set(key, attempt);
        const code = statusCode(err);
        // A conflict means someone wrote in between: retry at once from fresh state (a few times), then back off.
        const delay = code === 409 && attempt <= 3 ? 0 : Math.min(30_000, 10 * 2 ** Math.min(attempt, 12));
        this.log({
          level: code === 409 || code === 404 ? 'debug' : 'error',
          msg: 'simulated controller sync failed, will retry',
          key,
          attempt,
          retryInMs: delay,
          code,
          error: err instanceof Error && code === undefined ? err.stack : errorMessage(err),
        });
        if (delay === 0) this.add(key);
        else this.addAfter(key, delay);
      }
    }
  }
}

// ---------------------------------------------------------------- object helpers

export const clone = <T>(value: T): T => structuredClone(value);

export function getObj(sim: Sim, gvr: Gvr, namespace: string, name: string): KubeObj | undefined {
  const obj = sim.api.get(gvr, namespace || undefined, name);
  return obj ? clone(obj) : undefined;
}

export function listObjs(sim: Sim, gvr: Gvr, namespace: string): KubeObj[] {
  return sim.api.list(gvr, namespace || undefined).map(clone);
}

/**
 * Whether the server serves a resource (the API answers 404 NotFound for an
 * unregistered one). Logs once per resource while it is missing, so a
 * simulator on a server without, say, `nodes` degrades instead of failing.
 */
export function served(sim: Sim, gvr: Gvr): boolean {
  const missing = sim.memory('unserved-resources', () => new Set<string>());
  const known = sim.memory('served-resources', () => new Set<string>());
  const id = `${gvr.group || 'core'}/${gvr.version}/${gvr.resource}`;
  if (known.has(id)) return true; // built-in resources do not go away
  try {
    sim.api.list(gvr, undefined, { limit: 1 });
    missing.delete(id);
    known.add(id);
    return true;
  } catch (err) {
    if (statusCode(err) !== 404) throw err;
    if (!missing.has(id)) {
      missing.add(id);
      sim.log({
        level: 'info',
        msg: `${gvr.resource} resource not served: the workload simulator skips what needs it`,
        resource: id,
      });
    }
    return false;
  }
}

/** Writes the status through the status subresource, only when it changed; returns the stored object. */
export function writeStatus(sim: Sim, gvr: Gvr, obj: KubeObj, status: Obj): KubeObj {
  if (sameJson(obj.status ?? {}, status)) return obj;
  return sim.api.update(
    gvr,
    obj.metadata.namespace,
    obj.metadata.name as string,
    { ...obj, status },
    'status',
  );
}

/** Writes the main resource (optimistic concurrency on the resourceVersion read). */
export function writeObj(sim: Sim, gvr: Gvr, obj: KubeObj): KubeObj {
  return sim.api.update(gvr, obj.metadata.namespace, obj.metadata.name as string, obj);
}

/** Deletes, treating "already gone" as done. */
export function deleteObj(
  sim: Sim,
  gvr: Gvr,
  obj: KubeObj,
  propagationPolicy?: 'Background' | 'Foreground',
): void {
  try {
    sim.api.delete(gvr, obj.metadata.namespace, obj.metadata.name as string, {
      preconditions: { uid: obj.metadata.uid },
      ...(propagationPolicy ? { propagationPolicy } : {}),
    });
  } catch (err) {
    if (statusCode(err) !== 404) throw err;
  }
}

export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortKeysDeep((value as Obj)[k])]),
    );
  }
  return value;
}

export const stableJson = (value: unknown) => JSON.stringify(sortKeysDeep(value));

/**
 * Drops what a Go struct cannot tell from "absent": nulls, empty objects and
 * empty lists (recursively), so that `resources: {}` or `creationTimestamp: null`
 * in a template (kubectl rollout undo sends them) compare equal to their absence,
 * as apiequality.Semantic.DeepEqual does.
 */
export function semantic(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(semantic);
  if (value && typeof value === 'object') {
    const out: Obj = {};
    for (const [k, v] of Object.entries(value as Obj)) {
      const n = semantic(v);
      if (n === null || n === undefined) continue;
      if (Array.isArray(n) && !n.length) continue;
      if (typeof n === 'object' && !Array.isArray(n) && !Object.keys(n as Obj).length) continue;
      out[k] = n;
    }
    return out;
  }
  return value;
}
export const sameJson = (a: unknown, b: unknown) => stableJson(a) === stableJson(b);

/** RFC 3339 with seconds, as Kubernetes writes timestamps. */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const parseTime = (value: unknown): number | undefined => {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
};

export function controllerRef(owner: KubeObj): OwnerReference {
  return {
    apiVersion: owner.apiVersion as string,
    kind: owner.kind as string,
    name: owner.metadata.name as string,
    uid: owner.metadata.uid as string,
    controller: true,
    blockOwnerDeletion: true,
  };
}

export const controllerOf = (obj: KubeObj): OwnerReference | undefined =>
  obj.metadata.ownerReferences?.find((r) => r.controller);

export const isControlledBy = (obj: KubeObj, owner: KubeObj) => controllerOf(obj)?.uid === owner.metadata.uid;

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** metav1.LabelSelectorAsSelector(...).Matches: an empty selector matches everything. */
export function selectorMatches(
  selector: LabelSelector | undefined,
  labels: Record<string, string> = {},
): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false;
  return (selector.matchExpressions ?? []).every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    switch (e.operator) {
      case 'In':
        return has && (e.values ?? []).includes(labels[e.key]);
      case 'NotIn':
        return !has || !(e.values ?? []).includes(labels[e.key]);
      case 'Exists':
        return has;
      case 'DoesNotExist':
        return !has;
      default:
        return false;
    }
  });
}

/**
 * The controller's claim on dependents (controller_ref_manager.go): objects it
 * controls, plus orphans its selector matches, which it adopts by adding a
 * controller reference. Adoption is skipped while the owner is being deleted.
 */
export function claim(sim: Sim, gvr: Gvr, owner: KubeObj, candidates: KubeObj[]): KubeObj[] {
  const selector = (owner.spec as Obj | undefined)?.selector as LabelSelector | undefined;
  const owned: KubeObj[] = [];
  for (const obj of candidates) {
    const ref = controllerOf(obj);
    if (ref) {
      if (ref.uid === owner.metadata.uid) owned.push(obj);
      continue;
    }
    if (owner.metadata.deletionTimestamp || obj.metadata.deletionTimestamp) continue;
    if (!selectorMatches(selector, obj.metadata.labels)) continue;
    const adopted = clone(obj);
    adopted.metadata.ownerReferences = [...(adopted.metadata.ownerReferences ?? []), controllerRef(owner)];
    owned.push(writeObj(sim, gvr, adopted));
  }
  return owned;
}

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastProbeTime?: string | null;
  [key: string]: unknown;
}

export const findCondition = (conditions: Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);

/** Random lowercase hex, e.g. for container IDs. */
export const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Integer or percent of a total (intstr.GetScaledValueFromIntOrPercent). */
export function scaledValue(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const m = /^(\d+)%$/.exec(value);
    if (m) {
      const v = (Number(m[1]) * total) / 100;
      return roundUp ? Math.ceil(v) : Math.floor(v);
    }
    if (/^\d+$/.test(value)) return Number(value);
  }
  return 0;
}

/** Drops zero counters, as Go's `omitempty` does for the int32 status fields that carry it. */
export function omitZero<T extends Obj>(status: T, keys: string[]): T {
  for (const k of keys) if (status[k] === 0) delete status[k];
  return status;
}
