/**
 * What every simulated controller shares: the `Sim` a reconcile function gets,
 * the resources it reads and writes (GVR), the queue's keys, and how to read
 * an error thrown by the in-process API.
 */
import type { GroupVersionResource, StoredObject } from '#kube-core';
import type { InProcessApi, Logger } from '#kube-server';
import type { IControllerRevision } from 'kubernetes-models/apps/v1/ControllerRevision';
import type { IDaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IReplicaSet } from 'kubernetes-models/apps/v1/ReplicaSet';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { ICronJob } from 'kubernetes-models/batch/v1/CronJob';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IEndpointSlice } from 'kubernetes-models/discovery.k8s.io/v1/EndpointSlice';
import type { IEndpoints } from 'kubernetes-models/v1/Endpoints';
import type { IEvent } from 'kubernetes-models/v1/Event';
import type { INode } from 'kubernetes-models/v1/Node';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { IService } from 'kubernetes-models/v1/Service';
import type { ResolvedOptions } from './options.js';

/**
 * A kind's kubernetes-models type as the server stores and serves it: metadata always there
 * (kube-core's ObjectMeta), apiVersion and kind as plain strings (the models' literals are
 * required, and objects the simulator writes may leave them to the URL).
 */
export type Stored<T> = Omit<T, 'metadata' | 'apiVersion' | 'kind'> & StoredObject;

export type Pod = Stored<IPod>;
export type Event = Stored<IEvent>;
export type PersistentVolumeClaim = Stored<IPersistentVolumeClaim>;
export type Deployment = Stored<IDeployment>;
export type ReplicaSet = Stored<IReplicaSet>;
export type StatefulSet = Stored<IStatefulSet>;
export type DaemonSet = Stored<IDaemonSet>;
export type ControllerRevision = Stored<IControllerRevision>;
export type Job = Stored<IJob>;
export type CronJob = Stored<ICronJob>;
export type HorizontalPodAutoscaler = Stored<IHorizontalPodAutoscaler>;
export type Service = Stored<IService>;
export type Endpoints = Stored<IEndpoints>;
export type EndpointSlice = Stored<IEndpointSlice>;
export type Node = Stored<INode>;

/** A resource and the type of its objects (`model` is never set: it only carries the type). */
export interface Resource<T extends StoredObject> extends GroupVersionResource {
  readonly model?: T;
}

const resource = <T extends StoredObject>(group: string, version: string, plural: string): Resource<T> => ({
  group,
  version,
  resource: plural,
});

export const GVR = {
  pods: resource<Pod>('', 'v1', 'pods'),
  events: resource<Event>('', 'v1', 'events'),
  pvcs: resource<PersistentVolumeClaim>('', 'v1', 'persistentvolumeclaims'),
  deployments: resource<Deployment>('apps', 'v1', 'deployments'),
  replicasets: resource<ReplicaSet>('apps', 'v1', 'replicasets'),
  statefulsets: resource<StatefulSet>('apps', 'v1', 'statefulsets'),
  daemonsets: resource<DaemonSet>('apps', 'v1', 'daemonsets'),
  controllerrevisions: resource<ControllerRevision>('apps', 'v1', 'controllerrevisions'),
  jobs: resource<Job>('batch', 'v1', 'jobs'),
  cronjobs: resource<CronJob>('batch', 'v1', 'cronjobs'),
  hpas: resource<HorizontalPodAutoscaler>('autoscaling', 'v2', 'horizontalpodautoscalers'),
  services: resource<Service>('', 'v1', 'services'),
  endpoints: resource<Endpoints>('', 'v1', 'endpoints'),
  endpointslices: resource<EndpointSlice>('discovery.k8s.io', 'v1', 'endpointslices'),
  nodes: resource<Node>('', 'v1', 'nodes'),
};

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
    involved: StoredObject,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    component: string,
  ): void;
}

/** Queue keys are "<kind>/<namespace>/<name>" (not the cache's namespace/name: see '#kube-core' splitKey). */
export const keyOf = (kind: string, namespace: string, name: string) => `${kind}/${namespace}/${name}`;
export function splitQueueKey(key: string): { kind: string; namespace: string; name: string } {
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
