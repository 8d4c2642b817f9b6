import type { EventHandler } from '../cache/shared-informer.js';
import type { ResourceKind } from '../client/resource-kind.js';
import { parseApiVersion, type KubeObject } from '#kube-core';
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
 * An informer handler that filters events through predicates, maps objects to
 * requests, and enqueues them. Updates enqueue the requests of both the old
 * and the new object, so a change of owner reaches both owners.
 */
export function enqueueingHandler<T extends KubeObject>(
  map: MapFunc<T>,
  predicates: readonly Predicate<T>[],
  enqueue: (r: Request) => void,
): EventHandler<T> {
  const all = (obj: T): void => {
    for (const r of map(obj)) enqueue(r);
  };
  return {
    onAdd: (obj) => passesCreate(predicates, obj) && all(obj),
    onUpdate: (o, n) => {
      if (!passesUpdate(predicates, o, n)) return;
      all(o);
      all(n);
    },
    onDelete: (obj) => passesDelete(predicates, obj) && all(obj),
  };
}
