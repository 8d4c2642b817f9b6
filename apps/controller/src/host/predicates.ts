import type { Predicate } from '#runtime';
import { type KubeObject, jsonEqual } from '#kube-core';

/**
 * Drops updates that changed only the status (our own status writes): they
 * cannot change what is wanted. Resyncs (same resourceVersion) and any change
 * to spec, labels, annotations, finalizers or deletion pass. A spec change
 * shows as a new metadata.generation (the API server bumps it for any change
 * outside metadata and status), so the spec itself is compared only for an
 * object that has no generation.
 */
export const ignoreStatusOnlyUpdates: Predicate = {
  update: (o: KubeObject, n: KubeObject) => {
    if (o.metadata?.resourceVersion === n.metadata?.resourceVersion) return true;
    const og = o.metadata?.generation;
    const ng = n.metadata?.generation;
    if (og !== ng) return true;
    const watched = (x: KubeObject) => ({
      labels: x.metadata?.labels,
      annotations: x.metadata?.annotations,
      finalizers: x.metadata?.finalizers,
      deletionTimestamp: x.metadata?.deletionTimestamp,
      spec: typeof og === 'number' ? undefined : x.spec,
    });
    return !jsonEqual(watched(o), watched(n));
  },
};
