/** Reading and writing objects through the in-process API, as the simulated controllers do. */
import { jsonEqual, type GroupVersionResource, type StoredObject } from '#kube-core';
import type { ListQuery } from '#kube-server';
import { statusCode, type Obj, type Sim } from './sim.js';

/**
 * The object as stored (frozen: the store shares it; a controller that changes it
 * copies it, or writes a new object).
 */
export function getObj(
  sim: Sim,
  gvr: GroupVersionResource,
  namespace: string,
  name: string,
): StoredObject | undefined {
  return sim.api.get(gvr, namespace || undefined, name);
}

/**
 * The objects of a namespace (all namespaces for '') that `keep` selects, frozen
 * as `getObj`'s. `candidates` (a superset of what `keep` keeps) looks them up by
 * index instead of reading every object of the namespace.
 */
export function listObjs(
  sim: Sim,
  gvr: GroupVersionResource,
  namespace: string,
  keep?: (stored: StoredObject) => boolean,
  candidates?: ListQuery['candidates'],
): StoredObject[] {
  return sim.api.list(gvr, namespace || undefined, { where: keep, candidates });
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

/** Writes the status through the status subresource, only when it changed; returns the stored object. */
export function writeStatus(
  sim: Sim,
  gvr: GroupVersionResource,
  obj: StoredObject,
  status: Obj,
): StoredObject {
  if (jsonEqual(obj.status ?? {}, status)) return obj;
  return sim.api.update(
    gvr,
    obj.metadata.namespace,
    obj.metadata.name as string,
    { ...obj, status },
    'status',
  );
}

/** Writes the main resource (optimistic concurrency on the resourceVersion read). */
export function writeObj(sim: Sim, gvr: GroupVersionResource, obj: StoredObject): StoredObject {
  return sim.api.update(gvr, obj.metadata.namespace, obj.metadata.name as string, obj);
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
