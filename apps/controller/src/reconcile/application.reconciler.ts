import type { Application } from '#api';
import type { ReconcileContext, Reconciler, Request, Result } from '#runtime';
import { APPLICATIONS } from '#api';
import { requeueOnConflict } from './conflict.js';
import { finalize } from './finalize.js';
import { OwnWrites } from './own-writes.js';
import { ensureFinalizer } from './finalizer.js';
import { joinApplication, rejectedTraits, type InvalidTraits, type JoinSources } from './join.js';
import { releaseFor } from './release.js';
import { pinnedSources, pinsOf } from './pinned-sources.js';
import { RenderPipeline, type PipelineDeps, type PipelineInput } from './render-pipeline.js';
import { ResolveMemo, unsupportedFields } from './resolve-application.js';

export interface ReconcilerDeps extends PipelineDeps {
  /** Whether objects in this namespace are ours to reconcile (--watch-namespace). */
  inScope(namespace: string): boolean;
  /** The caches the join of Components and Traits reads. */
  sources: JoinSources;
}

/**
 * One reconcile of an Application (DESIGN, "One reconcile of an
 * Application"): read from the cache, join its Components and Traits
 * (reconcile/join.ts), resolve, then the render pipeline (render, apply,
 * prune, observe, write status only when it changed).
 */
export class ApplicationReconciler implements Reconciler {
  private readonly ownWrites = new OwnWrites();
  private readonly pipeline: RenderPipeline;
  private readonly resolver: ResolveMemo;

  constructor(private readonly deps: ReconcilerDeps) {
    this.pipeline = new RenderPipeline(deps, APPLICATIONS, this.ownWrites);
    this.resolver = new ResolveMemo({ clock: deps.clock });
  }

  reconcile(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    return requeueOnConflict(ctx, () => this.reconcileOnce(request, ctx));
  }

  private async reconcileOnce(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    if (!this.deps.inScope(request.namespace)) return;
    const key = `${request.namespace}/${request.name}`;
    const cached = this.ownWrites.fresher(
      key,
      await this.deps.client.get(APPLICATIONS, request.namespace, request.name),
    );
    if (!cached || cached.metadata?.deletionTimestamp) {
      this.pipeline.forget(request);
      this.resolver.forget({ kind: APPLICATIONS.kind, metadata: request });
    }
    if (!cached) return; // gone: its objects went with it (ownerReferences) or at finalization
    const release = releaseFor(this.deps.sources, cached);
    if (cached.metadata?.deletionTimestamp)
      return finalize(this.deps, APPLICATIONS, cached, ctx.log, release);
    let app = await ensureFinalizer(this.deps.client, APPLICATIONS, cached);
    if (app !== cached) this.ownWrites.remember(key, cached, app);
    // A rollback renders a stored revision's inputs with its definitions (revisions/revisions.ts).
    const chosen = await this.deps.revisions.source(app, this.deps.catalog);
    if (chosen.app !== app) this.ownWrites.remember(key, app, (app = chosen.app));
    const { source } = chosen;
    const pinned = source.parts
      ? pinnedSources(this.deps.sources, request.namespace, source.parts, source.catalog)
      : undefined;
    const owner = app;
    const input = (invalid: InvalidTraits): PipelineInput => {
      const joined = joinApplication(
        pinned?.sources ?? this.deps.sources,
        source.app as unknown as Application,
        invalid,
      );
      return {
        owner,
        resolved: this.resolver.resolve(joined.owner, source.catalog, joined.objects),
        unsupported: unsupportedFields(owner as unknown as Application),
        extraConditions: joined.conditions,
        revisionInputs: joined.revisionInputs,
        fromComponents: joined.fromComponents,
        release,
        source,
        rejected: rejectedTraits(joined),
        rejoin: (more) => input(new Map([...invalid, ...more])),
      };
    };
    const first = input(new Map());
    source.pinned = pinsOf(source.pinsDefinitions, pinned?.held());
    return this.pipeline.run(first, ctx);
  }
}
