import type { KubeObject } from '#kube-core';
import type { Application } from '#api';
import type { ReconcileContext, Reconciler, Request, Result } from '#runtime';
import { APPLICATIONS } from '#api';
import { settleErrors } from '../errors.js';
import type { JoinSources } from '../join/sources.js';
import { pinnedSources } from '../join/pinned-sources.js';
import { releaseFor } from '../join/release.js';
import { deleteApplied } from '../load/delete-applied.js';
import { ensureFinalizer } from '../load/finalizer.js';
import { OwnWrites } from '../load/own-writes.js';
import { unsupportedFields } from '../resolve/resolve.js';
import { StoredRevisions } from '../revisions/keeper.js';
import type { Loaded, StageDeps } from './context.js';
import { ReconcileSteps } from './steps.js';

export interface ReconcilerDeps extends StageDeps {
  /** Whether objects in this namespace are ours to reconcile (--watch-namespace). */
  inScope(namespace: string): boolean;
  /** The caches the join of Components and Traits reads. */
  sources: JoinSources;
}

/**
 * An Application's reconcile: step 1, load and finalize, is its own (a
 * rollback chooses what it renders); steps 2 to 10 are ReconcileSteps.
 */
export class ApplicationReconciler implements Reconciler {
  private readonly ownWrites = new OwnWrites();
  private readonly steps: ReconcileSteps;

  constructor(private readonly deps: ReconcilerDeps) {
    this.steps = new ReconcileSteps(deps, APPLICATIONS, this.ownWrites);
  }

  reconcile(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    return settleErrors(ctx, async () => {
      const loaded = await this.load(request, ctx);
      return 'done' in loaded ? loaded.done : this.steps.run(loaded, ctx.log);
    });
  }

  /** Step 1: the Application from the cache; being deleted, what it applied goes and the finalizer with it. */
  private async load(request: Request, ctx: ReconcileContext): Promise<Loaded | { done: Result | void }> {
    if (!this.deps.inScope(request.namespace)) return { done: undefined };
    const key = `${request.namespace}/${request.name}`;
    const cached = this.ownWrites.fresher(
      key,
      await this.deps.client.get(APPLICATIONS, request.namespace, request.name),
    );
    if (!cached || cached.metadata?.deletionTimestamp) this.steps.forget(request);
    if (!cached) return { done: undefined }; // gone: its objects went with it (ownerReferences) or at finalization
    const release = releaseFor(this.deps.sources, cached);
    if (cached.metadata?.deletionTimestamp)
      return { done: await deleteApplied(this.deps, APPLICATIONS, cached, ctx.log, release) };
    // A KubeObject from here: the revisions module takes any owner (an Application, a Component).
    let app = await ensureFinalizer<KubeObject>(this.deps.client, APPLICATIONS, cached);
    if (app !== cached) this.ownWrites.remember(key, cached, app);
    // A rollback renders a stored revision's inputs with its definitions.
    const chosen = await this.deps.revisions.source(app, this.deps.catalog);
    if (chosen.app !== app) this.ownWrites.remember(key, app, (app = chosen.app));
    const { source } = chosen;
    const pinned = source.parts
      ? pinnedSources(this.deps.sources, request.namespace, source.parts, source.catalog)
      : undefined;
    return {
      owner: app,
      join: {
        kind: 'Application',
        app: source.app as Application,
        sources: pinned?.sources ?? this.deps.sources,
        pinned,
        pinsDefinitions: source.pinsDefinitions,
      },
      catalog: source.catalog,
      memo: true,
      unsupported: unsupportedFields(app as Application),
      conditions: [],
      release,
      revisions: new StoredRevisions(this.deps.revisions, source),
    };
  }
}
