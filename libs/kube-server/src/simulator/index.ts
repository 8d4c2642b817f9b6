/**
 * The workload simulator: a stand-in, inside the embedded API server, for the
 * parts of kube-controller-manager, the scheduler and a kubelet that make
 * workloads come alive. No container runs. It is clearly a simulation: Pods run
 * on one node named "oam-local-simulated" (by default), their container IDs
 * start with `simulated://`, and the knobs are `simulation.oam.dev/*` annotations.
 *
 * Controllers: Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob,
 * HorizontalPodAutoscaler (simulated metrics), a PVC binder, the endpoints and
 * EndpointSlice controllers (Services' Endpoints from the pods' simulated IPs),
 * and the scheduler+kubelet, which also registers the node as a Node object
 * (annotated `simulation.oam.dev/simulated: "true"`, like the Pods it runs).
 * Resources the server does not serve (nodes, endpointslices) are skipped with
 * one log line. Each is level-triggered: events only queue object keys;
 * a reconcile reads the current state and acts on the difference.
 *
 * Usage: `await registerController(server, workloadSimulator({ readyDelayMs: 50 }))`.
 */
import type { ControllerContext, ControllerEvent, ServerController } from '../controllers/in-process.js';
import type { KubeObj } from '../store/types.js';
import { CRONJOB, reconcileCronJob } from './cronjob.js';
import { DAEMONSET, reconcileDaemonSet } from './daemonset.js';
import { DEPLOYMENT, reconcileDeployment } from './deployment.js';
import {
  ENDPOINTS_CONTROLLER,
  ENDPOINTS_MANAGED_BY,
  EndpointsController,
  SERVICE,
  SLICE_MANAGED_BY,
  SLICE_CONTROLLER,
  SLICE_SERVICE_NAME,
} from './endpoints.js';
import { HPA, HPA_HISTORY, reconcileHpa, targetOf } from './hpa.js';
import { JOB, reconcileJob } from './job.js';
import { Kubelet, POD } from './kubelet.js';
import { NODE, nodeKey, reconcileNode } from './node.js';
import { PVC, reconcileClaim } from './pvc.js';
import { REPLICASET, reconcileReplicaSet } from './replicaset.js';
import {
  GVR,
  WorkQueue,
  controllerOf,
  errorMessage,
  keyOf,
  listObjs,
  resolveOptions,
  selectorMatches,
  splitKey,
  timestamp,
  type LabelSelector,
  type Obj,
  type Sim,
  type SimulatorOptions,
} from './runtime.js';
import { STATEFULSET, reconcileStatefulSet } from './statefulset.js';

export type { SimulatorOptions } from './runtime.js';
export { ANNOTATIONS as POD_ANNOTATIONS } from './kubelet.js';
export { UTILIZATION_ANNOTATION } from './hpa.js';

export const SIMULATOR_NAME = 'workload-simulator';

/** Keys of orphans that may need adopting: the owners whose selector matches get queued. */
const ORPHAN_POD = 'orphan-pod';
const ORPHAN_RS = 'orphan-rs';
/** The simulated Node changed: wake what schedules onto it. */
const NODE_CHANGED = 'node-changed';

const OWNER_KINDS: Record<string, string> = {
  Deployment: DEPLOYMENT,
  ReplicaSet: REPLICASET,
  StatefulSet: STATEFULSET,
  DaemonSet: DAEMONSET,
  Job: JOB,
  CronJob: CRONJOB,
};

/** Resources (storage keys) the simulator reconciles, and the queue kind of each. */
const PRIMARY: Record<string, { kind: string; gvr: (typeof GVR)[keyof typeof GVR] }> = {
  '/pods': { kind: POD, gvr: GVR.pods },
  'apps/deployments': { kind: DEPLOYMENT, gvr: GVR.deployments },
  'apps/replicasets': { kind: REPLICASET, gvr: GVR.replicasets },
  'apps/statefulsets': { kind: STATEFULSET, gvr: GVR.statefulsets },
  'apps/daemonsets': { kind: DAEMONSET, gvr: GVR.daemonsets },
  'batch/jobs': { kind: JOB, gvr: GVR.jobs },
  'batch/cronjobs': { kind: CRONJOB, gvr: GVR.cronjobs },
  'autoscaling/horizontalpodautoscalers': { kind: HPA, gvr: GVR.hpas },
  '/persistentvolumeclaims': { kind: PVC, gvr: GVR.pvcs },
  '/services': { kind: SERVICE, gvr: GVR.services },
};

const SCALE_TARGETS: Record<string, string> = {
  'apps/deployments': 'Deployment',
  'apps/replicasets': 'ReplicaSet',
  'apps/statefulsets': 'StatefulSet',
};

export interface WorkloadSimulator extends ServerController {
  /**
   * Resolves when no key is queued right now (timers may still be pending); for tests. With a
   * FakeClock: advance it, then `idle()`, and every reconcile that fell due has run.
   */
  idle(): Promise<void>;
  /** Whether a key is queued right now (delayed wake-ups aside); for tests. */
  readonly busy: boolean;
}

/** The simulator as an in-process controller for the embedded server (see `registerController`). */
export function workloadSimulator(options: SimulatorOptions = {}): WorkloadSimulator {
  const opts = resolveOptions(options);
  let queue: WorkQueue | undefined;
  let unsubscribe: (() => void) | undefined;
  const memory = new Map<string, unknown>();
  let eventCounter = 0;

  return {
    name: SIMULATOR_NAME,

    start(ctx: ControllerContext) {
      const log = ctx.log;
      const sim: Sim = {
        api: ctx.api,
        log,
        opts,
        now: () => opts.clock.now(),
        enqueue: (key, afterMs) => (afterMs && afterMs > 0 ? queue?.addAfter(key, afterMs) : queue?.add(key)),
        memory: <T>(name: string, init: () => T) => {
          if (!memory.has(name)) memory.set(name, init());
          return memory.get(name) as T;
        },
        event: (involved, type, reason, message, component) => {
          if (!opts.events) return;
          recordEvent(sim, involved, type, reason, message, component, eventCounter++);
        },
      };
      const kubelet = new Kubelet(sim);
      const endpoints = new EndpointsController(sim);
      // HPAs by the object they scale ("<ns>/<Kind>/<name>"), so a target's change wakes its HPAs.
      const hpasByTarget = new Map<string, Set<string>>();
      const hpaTargets = new Map<string, string>();
      const indexHpa = (hpa: KubeObj, deleted: boolean) => {
        const self = `${hpa.metadata.namespace}/${hpa.metadata.name}`;
        const before = hpaTargets.get(self);
        if (before) hpasByTarget.get(before)?.delete(hpa.metadata.name as string);
        hpaTargets.delete(self);
        const ref = (hpa.spec as Obj | undefined)?.scaleTargetRef as Obj | undefined;
        if (deleted || !ref?.kind || !ref.name || !targetOf(hpa)) return;
        const target = `${hpa.metadata.namespace}/${ref.kind}/${ref.name}`;
        hpaTargets.set(self, target);
        if (!hpasByTarget.has(target)) hpasByTarget.set(target, new Set());
        hpasByTarget.get(target)?.add(hpa.metadata.name as string);
      };

      const handlers: Record<string, (namespace: string, name: string) => void> = {
        [POD]: (ns, name) => kubelet.reconcile(ns, name),
        [DEPLOYMENT]: (ns, name) => reconcileDeployment(sim, ns, name),
        [REPLICASET]: (ns, name) => reconcileReplicaSet(sim, ns, name),
        [STATEFULSET]: (ns, name) => reconcileStatefulSet(sim, ns, name),
        [DAEMONSET]: (ns, name) => reconcileDaemonSet(sim, kubelet.node, ns, name),
        [JOB]: (ns, name) => reconcileJob(sim, ns, name),
        [CRONJOB]: (ns, name) => reconcileCronJob(sim, ns, name),
        [HPA]: (ns, name) => reconcileHpa(sim, ns, name),
        [PVC]: (ns, name) => reconcileClaim(sim, ns, name),
        [SERVICE]: (ns, name) => endpoints.reconcile(ns, name),
        [NODE]: (_ns, name) => reconcileNode(sim, name),
        // The Node changed (labels, cordon, taints): pending pods get another scheduling attempt,
        // DaemonSets re-check whether they should run there.
        [NODE_CHANGED]: () => {
          for (const pod of sim.api.list(GVR.pods)) {
            if (!(pod.spec as Obj | undefined)?.nodeName)
              sim.enqueue(keyOf(POD, pod.metadata.namespace ?? '', pod.metadata.name as string));
          }
          for (const ds of sim.api.list(GVR.daemonsets))
            sim.enqueue(keyOf(DAEMONSET, ds.metadata.namespace ?? '', ds.metadata.name as string));
        },
        [ORPHAN_POD]: (ns, name) =>
          wakeSelectingOwners(sim, ns, name, GVR.pods, [
            [GVR.replicasets, REPLICASET],
            [GVR.statefulsets, STATEFULSET],
            [GVR.daemonsets, DAEMONSET],
          ]),
        [ORPHAN_RS]: (ns, name) =>
          wakeSelectingOwners(sim, ns, name, GVR.replicasets, [[GVR.deployments, DEPLOYMENT]]),
      };
      queue = new WorkQueue(
        (key) => {
          const { kind, namespace, name } = splitKey(key);
          handlers[kind]?.(namespace, name);
        },
        log,
        opts.clock,
      );

      const route = (e: ControllerEvent) => {
        const obj = e.object;
        const ns = e.namespace;
        const deleted = e.type === 'DELETED';
        routeEndpoints(e, deleted);
        const primary = PRIMARY[e.resource];
        if (!primary || e.resource === '/services') return;
        if (e.resource === '/pods' && deleted) kubelet.forget(obj);
        if (e.resource === 'autoscaling/horizontalpodautoscalers') {
          indexHpa(obj, deleted);
          if (deleted)
            (memory.get(HPA_HISTORY) as Map<string, unknown> | undefined)?.delete(obj.metadata.uid as string);
        }
        if (!deleted) queue?.add(keyOf(primary.kind, ns, e.name));
        const owner = controllerOf(obj);
        const ownerKind = owner ? OWNER_KINDS[owner.kind] : undefined;
        if (owner && ownerKind) queue?.add(keyOf(ownerKind, ns, owner.name));
        if (!owner && !deleted && e.resource === '/pods') queue?.add(keyOf(ORPHAN_POD, ns, e.name));
        if (!owner && !deleted && e.resource === 'apps/replicasets') queue?.add(keyOf(ORPHAN_RS, ns, e.name));
        const targetKind = SCALE_TARGETS[e.resource];
        if (targetKind) {
          for (const hpa of hpasByTarget.get(`${ns}/${targetKind}/${e.name}`) ?? [])
            queue?.add(keyOf(HPA, ns, hpa));
        }
      };
      // The endpoints controllers and the Node: Services (also deleted ones), the pods they select,
      // their Endpoints/EndpointSlices when someone else changes or deletes them, and our Node.
      const routeEndpoints = (e: ControllerEvent, deleted: boolean) => {
        switch (e.resource) {
          case '/services':
            queue?.add(endpoints.serviceChanged(e.object, deleted));
            break;
          case '/pods':
            for (const key of endpoints.podChanged(e.object, deleted)) queue?.add(key);
            break;
          case '/endpoints':
            if (deleted) queue?.add(keyOf(SERVICE, e.namespace, e.name));
            break;
          case 'discovery.k8s.io/endpointslices': {
            const labels = e.object.metadata.labels ?? {};
            if (labels[SLICE_MANAGED_BY] === SLICE_CONTROLLER && labels[SLICE_SERVICE_NAME])
              queue?.add(keyOf(SERVICE, e.namespace, labels[SLICE_SERVICE_NAME]));
            break;
          }
          case '/nodes':
            if (e.name !== opts.nodeName) break;
            queue?.add(nodeKey(e.name));
            queue?.add(keyOf(NODE_CHANGED, '', e.name));
            // EndpointSlices leave out pods whose Node is missing: a (re)created Node brings them back.
            if (e.type === 'ADDED') for (const key of endpoints.allServices()) queue?.add(key);
            break;
        }
      };
      unsubscribe = ctx.subscribe((event) => {
        // Listeners run inside the writer's call: only queue keys here, and never throw.
        try {
          route(event);
        } catch (err) {
          log({
            level: 'error',
            msg: 'workload simulator could not route an event',
            resource: event.resource,
            namespace: event.namespace,
            name: event.name,
            error: errorMessage(err),
          });
        }
      });

      // Level-triggered start: the Node first, then everything that exists now gets a sync.
      queue.add(nodeKey(opts.nodeName));
      for (const [resource, { kind, gvr }] of Object.entries(PRIMARY)) {
        let objects: KubeObj[] = [];
        try {
          objects = listObjs(sim, gvr, '');
        } catch (err) {
          log({
            level: 'error',
            msg: 'workload simulator could not list',
            resource,
            error: errorMessage(err),
          });
        }
        if (resource === '/pods') kubelet.adopt(objects);
        for (const obj of objects) {
          if (resource === 'autoscaling/horizontalpodautoscalers') indexHpa(obj, false);
          if (resource === '/services') endpoints.serviceChanged(obj, false);
          queue.add(keyOf(kind, obj.metadata.namespace ?? '', obj.metadata.name as string));
        }
      }
      // checkLeftoverEndpoints: Endpoints we manage whose Service went away while we were not running.
      try {
        const managed = sim.api.list(GVR.endpoints, undefined, {
          labelSelector: `${ENDPOINTS_MANAGED_BY}=${ENDPOINTS_CONTROLLER}`,
        });
        for (const ep of managed)
          queue.add(keyOf(SERVICE, ep.metadata.namespace ?? '', ep.metadata.name as string));
      } catch (err) {
        log({ level: 'debug', msg: 'workload simulator could not list endpoints', error: errorMessage(err) });
      }
      log({
        level: 'info',
        msg: 'workload simulator started (no containers run: pods are simulated)',
        node: opts.nodeName,
        readyDelayMs: opts.readyDelayMs,
      });
    },

    stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      queue?.stop();
      memory.clear();
    },

    async idle() {
      await queue?.idle();
    },

    get busy() {
      return queue?.busy ?? false;
    },
  };
}

/** An orphan appeared: queue every controller in its namespace whose selector matches it (it may adopt it). */
function wakeSelectingOwners(
  sim: Sim,
  namespace: string,
  name: string,
  gvr: (typeof GVR)[keyof typeof GVR],
  owners: Array<[(typeof GVR)[keyof typeof GVR], string]>,
): void {
  const orphan = sim.api.get(gvr, namespace, name);
  if (!orphan || controllerOf(orphan) || orphan.metadata.deletionTimestamp) return;
  for (const [ownerGvr, kind] of owners) {
    for (const owner of sim.api.list(ownerGvr, namespace)) {
      const selector = (owner.spec as Obj | undefined)?.selector as LabelSelector | undefined;
      if (selectorMatches(selector, orphan.metadata.labels))
        sim.enqueue(keyOf(kind, namespace, owner.metadata.name as string));
    }
  }
}

/** A core/v1 Event as client-go's recorder writes it (name `<object>.<hex>`, count 1). */
function recordEvent(
  sim: Sim,
  involved: KubeObj,
  type: 'Normal' | 'Warning',
  reason: string,
  message: string,
  component: string,
  counter: number,
): void {
  const now = sim.now();
  const namespace = involved.metadata.namespace || 'default';
  const suffix = (BigInt(now) * 1_000_000n + BigInt(counter % 1_000_000)).toString(16);
  const isKubelet = component === 'kubelet';
  try {
    sim.api.create(GVR.events, namespace, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${involved.metadata.name}.${suffix}`, namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.metadata.name,
        namespace: involved.metadata.namespace,
        uid: involved.metadata.uid,
        resourceVersion: involved.metadata.resourceVersion,
      },
      reason,
      message,
      type,
      source: { component, ...(isKubelet ? { host: sim.opts.nodeName } : {}) },
      firstTimestamp: timestamp(now),
      lastTimestamp: timestamp(now),
      count: 1,
      reportingComponent: component,
      reportingInstance: isKubelet ? sim.opts.nodeName : '',
    });
  } catch (err) {
    sim.log({
      level: 'debug',
      msg: 'could not record an event',
      reason,
      object: involved.metadata.name,
      error: errorMessage(err),
    });
  }
}
