/** Reading and writing objects through the in-process API, as the simulated controllers do. */
import { jsonEqual, type GroupVersionResource, type StoredObject } from '#kube-core';
import type { ListQuery } from '#kube-server';
import { statusCode, type Resource, type Sim } from './sim.js';

/**
 * The object as stored (frozen: the store shares it; a controller that changes it
 * copies it, or writes a new object).
 */
export function getObj<T extends StoredObject>(
  sim: Sim,
  gvr: Resource<T>,
  namespace: string,
  name: string,
): T | undefined {
  return sim.api.get(gvr, namespace || undefined, name) as T | undefined;
}

/**
 * The objects of a namespace (all namespaces for '') that `keep` selects, frozen
 * as `getObj`'s. `candidates` (a superset of what `keep` keeps) looks them up by
 * index instead of reading every object of the namespace.
 */
export function listObjs<T extends StoredObject>(
  sim: Sim,
  gvr: Resource<T>,
  namespace: string,
  keep?: (stored: T) => boolean,
  candidates?: ListQuery['candidates'],
): T[] {
  const where = keep as ((stored: StoredObject) => boolean) | undefined;
  return sim.api.list(gvr, namespace || undefined, { where, candidates }) as T[];
}

/**
 * Whether the server serves a resource (the API answers 404 NotFound for an
 * unregistered one). Logs once per resource while it is missing, so a
 * simulator on a server without, say, `nodes` degrades instead of failing.
 */
export function served(sim: Sim, gvr: GroupVersionResource): boolean {
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

/**
 * Writes the status through the status subresource, only when it changed; returns the stored
 * object. The status is the kind's as the simulated controller builds it (a model's shape, give or
 * take what kube writes and the models leave out, as a Pod condition's null lastProbeTime).
 */
export function writeStatus<T extends StoredObject>(sim: Sim, gvr: Resource<T>, obj: T, status: object): T {
  if (jsonEqual(obj.status ?? {}, status)) return obj;
  const { namespace, name } = obj.metadata;
  return sim.api.update(gvr, namespace, name as string, { ...obj, status }, 'status') as T;
}

/** Writes the main resource (optimistic concurrency on the resourceVersion read). */
export function writeObj<T extends StoredObject>(sim: Sim, gvr: Resource<T>, obj: T): T {
  return sim.api.update(gvr, obj.metadata.namespace, obj.metadata.name as string, obj) as T;
}

/** Deletes, treating "already gone" as done. */
export function deleteObj(
  sim: Sim,
  gvr: GroupVersionResource,
  obj: StoredObject,
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

/** Creates an object (the API's create, typed as the resource's objects). */
export function createObj<T extends StoredObject>(
  sim: Sim,
  gvr: Resource<T>,
  namespace: string | undefined,
  obj: object,
): T {
  return sim.api.create(gvr, namespace, obj) as T;
}
