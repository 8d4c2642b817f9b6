/**
 * What every simulated controller shares: the `Sim` a reconcile function gets,
 * the resources it reads and writes (GVR), the queue's keys, and how to read
 * an error thrown by the in-process API.
 */
import type { GroupVersionResource, StoredObject } from '#kube-core';
import type { InProcessApi, Logger } from '#kube-server';
import type { ResolvedOptions } from './options.js';

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
} satisfies Record<string, GroupVersionResource>;

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
