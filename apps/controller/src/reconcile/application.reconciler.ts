import type { Application } from '#api';
import { isConflict, type ReconcileContext, type Reconciler, type Request, type Result } from '#runtime';
import { errorMessage } from '../apply/applier.js';
import { APPLICATIONS } from '../constants.js';
import { finalize } from './finalize.js';
import { OwnWrites } from './own-writes.js';
import { ensureFinalizer } from './finalizer.js';
import { RenderPipeline, type PipelineDeps } from './render-pipeline.js';
import { resolveApplication, unsupportedFields } from './resolve-application.js';

export interface ReconcilerDeps extends PipelineDeps {
  /** Whether Applications in this namespace are ours to reconcile (--watch-namespace). */
  inScope(namespace: string): boolean;
}

/**
 * One reconcile of an Application (DESIGN, "One reconcile of an
 * Application"): read from the cache, resolve, then the render pipeline
 * (render, apply, prune, observe, write status only when it changed).
 */
export class ApplicationReconciler implements Reconciler {
  private readonly ownWrites = new OwnWrites();
  private readonly pipeline: RenderPipeline;

  constructor(private readonly deps: ReconcilerDeps) {
    this.pipeline = new RenderPipeline(deps, APPLICATIONS, this.ownWrites);
  }

  async reconcile(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    try {
      return await this.reconcileOnce(request, ctx);
    } catch (err) {
      // Someone wrote the Application since the cache saw it: not a failure, just look again.
      if (!isConflict(err)) throw err;
      ctx.log.debug('conflict; requeued', { error: errorMessage(err) });
      return { requeue: true };
    }
  }

  private async reconcileOnce(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    if (!this.deps.inScope(request.namespace)) return;
    const key = `${request.namespace}/${request.name}`;
    const cached = this.ownWrites.fresher(
      key,
      await this.deps.client.get(APPLICATIONS, request.namespace, request.name),
    );
    if (!cached) return; // gone: its objects went with it (ownerReferences) or at finalization
    if (cached.metadata?.deletionTimestamp) return finalize(this.deps, APPLICATIONS, cached, ctx.log);
    let app = await ensureFinalizer(this.deps.client, APPLICATIONS, cached);
    if (app !== cached) this.ownWrites.remember(key, cached, app);
    // A rollback renders a stored revision's inputs and definitions (revisions/revisions.ts).
    const chosen = await this.deps.revisions.source(app, this.deps.catalog);
    if (chosen.app !== app) this.ownWrites.remember(key, app, (app = chosen.app));
    return this.pipeline.run(
      {
        owner: app,
        resolved: resolveApplication(chosen.source.app, chosen.source.catalog),
        unsupported: unsupportedFields(app as unknown as Application),
        source: chosen.source,
      },
      ctx,
    );
  }
}
