import { LABELS } from '#api';
import {
  DEFAULT_PRIORITY,
  kindId,
  updatePriority,
  type EventHandler,
  type InformerFactory,
  type InformerLease,
  type Request,
  type ResourceKind,
} from '#runtime';
import { controllerOf, objectKey, type KubeObject } from '#kube-core';

/**
 * Watches added at run time, one per kind the definitions render (which
 * kinds that is, only the definitions know). Every rendered object carries
 * KubeVela's `app.oam.dev/name` and `app.oam.dev/namespace` labels, so a
 * change to any of them, in any namespace or cluster-scoped, enqueues its
 * application: drift is seen, health is re-observed, deletions are noticed.
 *
 * Counted per application: a kind is watched while some application's last
 * render has objects of it, and released when none has (render changed, or
 * the Application is gone); the informer factory then stops its informer.
 *
 * Each event names the kind of the object's controller owner (Application
 * or Component), so only that kind's reconciler is queued; objects that
 * cannot carry an owner reference (other namespaces, cluster-scoped) name
 * none and go to every owner kind. A resync (the object unchanged) enqueues
 * at low priority: real changes go first.
 */
export class OwnedWatches {
  private readonly leases = new Map<string, { lease: InformerLease; apps: Set<string> }>();
  private readonly kindsOf = new Map<string, Set<string>>();

  constructor(
    private readonly informers: InformerFactory,
    /** The owners' informers (Applications, standalone Components): an owner's deletion releases its kinds. */
    owners: Owners | readonly Owners[],
    private readonly enqueue: (r: Request, ownerKind: string | undefined, priority: number) => void,
  ) {
    for (const informer of Array.isArray(owners) ? owners : [owners])
      informer.addEventHandler({ onDelete: (app: KubeObject) => this.keep(app, []) });
  }

  /** The kinds `app`'s latest render has objects of: newly seen ones are watched, ones it no longer renders released. */
  keep(app: KubeObject, kinds: readonly ResourceKind[]): void {
    const appKey = `${app.kind}|${objectKey(app)}`; // an Application and a Component may share a name
    const before = this.kindsOf.get(appKey) ?? new Set<string>();
    const now = new Set<string>();
    for (const kind of kinds) {
      const id = kindId(kind);
      now.add(id);
      if (before.has(id)) continue;
      let held = this.leases.get(id);
      if (!held) {
        held = { lease: this.informers.hold(kind, { handler: this.handler }), apps: new Set() };
        this.leases.set(id, held);
      }
      held.apps.add(appKey);
    }
    for (const id of before) {
      if (now.has(id)) continue;
      const held = this.leases.get(id);
      if (!held) continue;
      held.apps.delete(appKey);
      if (held.apps.size > 0) continue;
      this.leases.delete(id);
      held.lease.release();
    }
    if (now.size) this.kindsOf.set(appKey, now);
    else this.kindsOf.delete(appKey);
  }

  private readonly handler: EventHandler<KubeObject> = (() => {
    const route = (obj: KubeObject, priority = DEFAULT_PRIORITY) => {
      const owner = controllerOf(obj)?.kind;
      for (const r of applicationOf(obj)) this.enqueue(r, owner, priority);
    };
    return {
      onAdd: (obj: KubeObject) => route(obj),
      onUpdate: (before: KubeObject, after: KubeObject) => {
        const priority = updatePriority(before, after);
        route(before, priority);
        route(after, priority);
      },
      onDelete: (obj: KubeObject) => route(obj),
    };
  })();

  /**
   * Does a change of `obj` (a live object of a kind `owner`'s render keeps watched) enqueue `owner`?
   * Yes when it carries the owner's labels and no other owner kind controls
   * it; otherwise (someone else's object) only looking again notices its changes.
   */
  reaches(obj: KubeObject, owner: KubeObject): boolean {
    const to = applicationOf(obj)[0];
    return (
      to?.name === owner.metadata?.name &&
      to?.namespace === owner.metadata?.namespace &&
      routesTo(controllerOf(obj)?.kind, owner.kind!)
    );
  }

  /** The kinds watched now (resource ids such as `deployments.apps/v1`). */
  watched(): string[] {
    return [...this.leases.keys()].sort();
  }
}

/**
 * Which owner kind's reconciler an event of an object controlled by
 * `controllerKind` goes to: an owner kind's objects to it alone (an
 * Application's never wake the Component reconciler, nor the reverse);
 * objects without such an owner (other namespaces, cluster-scoped) to every one.
 */
export function routesTo(controllerKind: string | undefined, ownerKind: string): boolean {
  return !controllerKind || !OWNER_KINDS.has(controllerKind) || controllerKind === ownerKind;
}
const OWNER_KINDS = new Set(['Application', 'Component']);

function applicationOf(obj: KubeObject): Request[] {
  const labels = obj.metadata?.labels;
  const name = labels?.[LABELS.appName];
  const namespace = labels?.[LABELS.appNamespace];
  return name && namespace ? [{ namespace, name }] : [];
}

/** An owners' informer, of whichever kind: an owner's deletion is all it is asked for. */
interface Owners {
  addEventHandler(handler: EventHandler<KubeObject>): unknown;
}
