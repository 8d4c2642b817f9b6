/**
 * From changes to queued keys. Events only queue keys (level-triggered: a
 * reconcile reads the current state): a change queues the object's own key,
 * its controller's, the HPAs that scale it, the Services that select a Pod,
 * orphans' possible adopters; at start, everything that exists gets a sync.
 */
import type { ControllerEvent } from '#kube-server';
import { controllerOf, type StoredObject } from '#kube-core';
import { CRONJOB } from './cronjob.js';
import { DAEMONSET } from './daemonset.js';
import { DEPLOYMENT } from './deployment.js';
import {
  ENDPOINTS_CONTROLLER,
  ENDPOINTS_MANAGED_BY,
  SERVICE,
  SLICE_CONTROLLER,
  SLICE_MANAGED_BY,
  SLICE_SERVICE_NAME,
  type EndpointsController,
} from './endpoints.js';
import { HPA, HPA_HISTORY, targetOf } from './hpa.js';
import { JOB } from './job.js';
import { POD, type Kubelet } from './kubelet.js';
import { nodeKey } from './node.js';
import { listObjs } from './objects.js';
import { PVC } from './pvc.js';
import { NODE_CHANGED, ORPHAN_POD, ORPHAN_RS } from './reconcilers.js';
import { REPLICASET } from './replicaset.js';
import {
  GVR,
  errorMessage,
  keyOf,
  type HorizontalPodAutoscaler,
  type Pod,
  type Resource,
  type Service,
  type Sim,
} from './sim.js';
import { STATEFULSET } from './statefulset.js';

const OWNER_KINDS: Record<string, string> = {
  Deployment: DEPLOYMENT,
  ReplicaSet: REPLICASET,
  StatefulSet: STATEFULSET,
  DaemonSet: DAEMONSET,
  Job: JOB,
  CronJob: CRONJOB,
};

/** Resources (storage keys) the simulator reconciles, and the queue kind of each. */
const PRIMARY: Record<string, { kind: string; gvr: Resource<StoredObject> }> = {
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

/** Every storage key whose changes are routed (the primary resources, Endpoints, EndpointSlices, Nodes). */
export const ROUTED_RESOURCES = [
  ...Object.keys(PRIMARY),
  '/endpoints',
  'discovery.k8s.io/endpointslices',
  '/nodes',
];

const SCALE_TARGETS: Record<string, string> = {
  'apps/deployments': 'Deployment',
  'apps/replicasets': 'ReplicaSet',
  'apps/statefulsets': 'StatefulSet',
};

export class EventRouter {
  /** HPAs by the object they scale ("<ns>/<Kind>/<name>"), so a target's change wakes its HPAs. */
  private readonly hpasByTarget = new Map<string, Set<string>>();
  private readonly hpaTargets = new Map<string, string>();

  private readonly queue: { add(key: string): void };

  constructor(
    private readonly sim: Sim,
    private readonly kubelet: Kubelet,
    private readonly endpoints: EndpointsController,
    /** The simulator's memory (an HPA's recommendation history goes with the HPA). */
    private readonly memory: Map<string, unknown>,
  ) {
    this.queue = { add: (key) => sim.enqueue(key) };
  }

  /**
   * Queues the keys one committed change concerns. An event's object is of the kind its
   * resource (storage key) says: that is what narrows it below.
   */
  route(e: ControllerEvent): void {
    const queue = this.queue;
    const obj = e.object;
    const ns = e.namespace;
    const deleted = e.type === 'DELETED';
    this.routeEndpoints(e, deleted);
    const primary = PRIMARY[e.resource];
    if (!primary || e.resource === '/services') return;
    if (e.resource === '/pods' && deleted) this.kubelet.forget(obj as Pod);
    if (e.resource === 'autoscaling/horizontalpodautoscalers') {
      this.indexHpa(obj as HorizontalPodAutoscaler, deleted);
      if (deleted)
        (this.memory.get(HPA_HISTORY) as Map<string, unknown> | undefined)?.delete(
          obj.metadata.uid as string,
        );
    }
    if (!deleted) queue.add(keyOf(primary.kind, ns, e.name));
    const owner = controllerOf(obj);
    const ownerKind = owner ? OWNER_KINDS[owner.kind] : undefined;
    if (owner && ownerKind) queue.add(keyOf(ownerKind, ns, owner.name));
    if (!owner && !deleted && e.resource === '/pods') queue.add(keyOf(ORPHAN_POD, ns, e.name));
    if (!owner && !deleted && e.resource === 'apps/replicasets') queue.add(keyOf(ORPHAN_RS, ns, e.name));
    const targetKind = SCALE_TARGETS[e.resource];
    if (targetKind) {
      for (const hpa of this.hpasByTarget.get(`${ns}/${targetKind}/${e.name}`) ?? [])
        queue.add(keyOf(HPA, ns, hpa));
    }
  }

  /** Level-triggered start: the Node first, then everything that exists now gets a sync. */
  queueExisting(): void {
    const { sim, queue } = this;
    const log = sim.log;
    queue.add(nodeKey(sim.opts.nodeName));
    for (const [resource, { kind, gvr }] of Object.entries(PRIMARY)) {
      let objects: StoredObject[] = [];
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
      if (resource === '/pods') this.kubelet.adopt(objects as Pod[]);
      for (const obj of objects) {
        if (resource === 'autoscaling/horizontalpodautoscalers')
          this.indexHpa(obj as HorizontalPodAutoscaler, false);
        if (resource === '/services') this.endpoints.serviceChanged(obj as Service, false);
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
  }

  /**
   * The endpoints controllers and the Node: Services (also deleted ones), the pods they select,
   * their Endpoints/EndpointSlices when someone else changes or deletes them, and our Node.
   */
  private routeEndpoints(e: ControllerEvent, deleted: boolean): void {
    const queue = this.queue;
    switch (e.resource) {
      case '/services':
        queue.add(this.endpoints.serviceChanged(e.object as Service, deleted));
        break;
      case '/pods':
        for (const key of this.endpoints.podChanged(e.object as Pod, deleted)) queue.add(key);
        break;
      case '/endpoints':
        if (deleted) queue.add(keyOf(SERVICE, e.namespace, e.name));
        break;
      case 'discovery.k8s.io/endpointslices': {
        const labels = e.object.metadata.labels ?? {};
        if (labels[SLICE_MANAGED_BY] === SLICE_CONTROLLER && labels[SLICE_SERVICE_NAME])
          queue.add(keyOf(SERVICE, e.namespace, labels[SLICE_SERVICE_NAME]));
        break;
      }
      case '/nodes':
        if (e.name !== this.sim.opts.nodeName) break;
        queue.add(nodeKey(e.name));
        queue.add(keyOf(NODE_CHANGED, '', e.name));
        // EndpointSlices leave out pods whose Node is missing: a (re)created Node brings them back.
        if (e.type === 'ADDED') for (const key of this.endpoints.allServices()) queue.add(key);
        break;
    }
  }

  private indexHpa(hpa: HorizontalPodAutoscaler, deleted: boolean): void {
    const self = `${hpa.metadata.namespace}/${hpa.metadata.name}`;
    const before = this.hpaTargets.get(self);
    if (before) this.hpasByTarget.get(before)?.delete(hpa.metadata.name as string);
    this.hpaTargets.delete(self);
    const ref = hpa.spec?.scaleTargetRef;
    if (deleted || !ref?.kind || !ref.name || !targetOf(hpa)) return;
    const target = `${hpa.metadata.namespace}/${ref.kind}/${ref.name}`;
    this.hpaTargets.set(self, target);
    if (!this.hpasByTarget.has(target)) this.hpasByTarget.set(target, new Set());
    this.hpasByTarget.get(target)?.add(hpa.metadata.name as string);
  }
}
