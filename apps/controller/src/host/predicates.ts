import type { Predicate } from '#runtime';
import { type KubeObject, stableStringify } from '#kube-core';

/**
 * Drops updates that changed only the status (our own status writes): they
 * cannot change what is wanted. Resyncs (same resourceVersion) and any change
 * to spec, labels, annotations, finalizers or deletion pass.
 */
export const ignoreStatusOnlyUpdates: Predicate = {
  update: (o: KubeObject, n: KubeObject) => {
    if (o.metadata?.resourceVersion === n.metadata?.resourceVersion) return true;
    const watched = (x: KubeObject) =>
      stableStringify({
        generation: x.metadata?.generation,
        labels: x.metadata?.labels,
        annotations: x.metadata?.annotations,
        finalizers: x.metadata?.finalizers,
        deletionTimestamp: x.metadata?.deletionTimestamp,
        spec: x.spec,
      });
    return watched(o) !== watched(n);
  },
};
