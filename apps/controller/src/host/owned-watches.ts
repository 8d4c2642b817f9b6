import { LABELS } from '#renderer';
import { enqueueingHandler, kindId, type InformerFactory, type Request, type ResourceKind } from '#runtime';
import { type KubeObject } from '#kube-core';

/**
 * Watches added at run time, one per kind the definitions render (which
 * kinds that is, only the definitions know). Every rendered object carries
 * KubeVela's `app.oam.dev/name` and `app.oam.dev/namespace` labels, so a
 * change to any of them, in any namespace or cluster-scoped, enqueues its
 * application: drift is seen, health is re-observed, deletions are noticed.
 */
export class OwnedWatches {
  private readonly watched = new Set<string>();

  constructor(
    private readonly informers: InformerFactory,
    private readonly enqueue: (r: Request) => void,
  ) {}

  ensure(kind: ResourceKind): void {
    const id = kindId(kind);
    if (this.watched.has(id)) return;
    this.watched.add(id);
    this.informers.informerFor(kind).addEventHandler(enqueueingHandler(applicationOf, [], this.enqueue));
  }
}

function applicationOf(obj: KubeObject): Request[] {
  const labels = obj.metadata?.labels;
  const name = labels?.[LABELS.appName];
  const namespace = labels?.[LABELS.appNamespace];
  return name && namespace ? [{ namespace, name }] : [];
}
