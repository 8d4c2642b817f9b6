import type { EventHandler } from '../cache/shared-informer.js';
import type { ResourceKind } from '../client/resource-kind.js';
import { parseApiVersion, type KubeObject } from '#kube-core';
import { DEFAULT_PRIORITY, LOW_PRIORITY } from '../workqueue/priority-fifo.js';
import { passesCreate, passesDelete, passesUpdate, type Predicate } from './predicates.js';
import type { Request } from './reconciler.js';

/** Maps any object to the requests it should trigger (e.g. through an index of the primary kind). */
export type MapFunc<T extends KubeObject = KubeObject> = (obj: T) => Request[];

/** The request for the object itself (the `for` kind). */
export const requestForObject: MapFunc = (obj) => [
  { namespace: obj.metadata?.namespace ?? '', name: obj.metadata!.name! },
];

/** The request for the object's controlling owner of kind `owner` (ownerReferences with controller: true). */
export function requestForOwner(owner: ResourceKind): MapFunc {
  return (obj) => {
    const ref = obj.metadata?.ownerReferences?.find(
      (r) => r.controller && r.kind === owner.kind && parseApiVersion(r.apiVersion).group === owner.group,
    );
    if (!ref) return [];
    return [{ namespace: owner.namespaced ? (obj.metadata?.namespace ?? '') : '', name: ref.name }];
  };
}

/**
 * The priority of an update event: low when the object did not change (an
 * informer resync or re-list replays it with the same resourceVersion), so
 * real changes are served first.
 */
export function updatePriority(o: KubeObject, n: KubeObject): number {
  const rv = n.metadata?.resourceVersion;
  return rv !== undefined && rv === o.metadata?.resourceVersion ? LOW_PRIORITY : DEFAULT_PRIORITY;
}

/**
 * An informer handler that filters events through predicates, maps objects to
 * requests, and enqueues them. Updates enqueue the requests of both the old
 * and the new object, so a change of owner reaches both owners; an update
 * that changed nothing (a resync) is enqueued at low priority.
 */
export function enqueueingHandler<T extends KubeObject>(
  map: MapFunc<T>,
  predicates: readonly Predicate<T>[],
  enqueue: (r: Request, priority: number) => void,
): EventHandler<T> {
  const all = (obj: T, priority: number): void => {
    for (const r of map(obj)) enqueue(r, priority);
  };
  return {
    onAdd: (obj) => passesCreate(predicates, obj) && all(obj, DEFAULT_PRIORITY),
    onUpdate: (o, n) => {
      if (!passesUpdate(predicates, o, n)) return;
      const priority = updatePriority(o, n);
      all(o, priority);
      all(n, priority);
    },
    onDelete: (obj) => passesDelete(predicates, obj) && all(obj, DEFAULT_PRIORITY),
  };
}
