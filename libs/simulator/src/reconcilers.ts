/**
 * Which reconcile a queued key runs: the kind in "<kind>/<namespace>/<name>" names the controller.
 * Three kinds reconcile nothing themselves but wake others: an orphan Pod or ReplicaSet (the
 * owners whose selector matches it may adopt it) and a change to the simulated Node.
 */
import { CRONJOB, reconcileCronJob } from './cronjob.js';
import { DAEMONSET, reconcileDaemonSet } from './daemonset.js';
import { DEPLOYMENT, reconcileDeployment } from './deployment.js';
import { SERVICE, type EndpointsController } from './endpoints.js';
import { HPA, reconcileHpa } from './hpa.js';
import { JOB, reconcileJob } from './job.js';
import { POD, type Kubelet } from './kubelet.js';
import { NODE, reconcileNode } from './node.js';
import { controllerOf, labelSelectorMatches, type LabelSelector, type StoredObject } from '#kube-core';
import { PVC, reconcileClaim } from './pvc.js';
import { REPLICASET, reconcileReplicaSet } from './replicaset.js';
import type { Selecting } from './ownership.js';
import { GVR, keyOf, type Pod, type Resource, type Sim } from './sim.js';
import { STATEFULSET, reconcileStatefulSet } from './statefulset.js';

/** Keys of orphans that may need adopting: the owners whose selector matches get queued. */
export const ORPHAN_POD = 'orphan-pod';
export const ORPHAN_RS = 'orphan-rs';
/** The simulated Node changed: wake what schedules onto it. */
export const NODE_CHANGED = 'node-changed';

export type Reconcile = (namespace: string, name: string) => void;

/** The reconcile of each key kind. */
export function reconcilers(
  sim: Sim,
  kubelet: Kubelet,
  endpoints: EndpointsController,
): Record<string, Reconcile> {
  return {
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
      for (const pod of sim.api.list(GVR.pods) as Pod[]) {
        if (!pod.spec?.nodeName)
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
}

/** An orphan appeared: queue every controller in its namespace whose selector matches it (it may adopt it). */
function wakeSelectingOwners(
  sim: Sim,
  namespace: string,
  name: string,
  gvr: Resource<StoredObject>,
  owners: Array<[Resource<Selecting>, string]>,
): void {
  const orphan = sim.api.get(gvr, namespace, name);
  if (!orphan || controllerOf(orphan) || orphan.metadata.deletionTimestamp) return;
  for (const [ownerGvr, kind] of owners) {
    for (const owner of sim.api.list(ownerGvr, namespace) as Selecting[]) {
      const selector = owner.spec?.selector as LabelSelector | undefined;
      if (labelSelectorMatches(selector, orphan.metadata.labels))
        sim.enqueue(keyOf(kind, namespace, owner.metadata.name as string));
    }
  }
}
