import type { AppliedResource, Application, ApplicationStatus } from '#api';
import { RenderErrors, type DefinitionCatalog, type RenderedApp, type RendererHandle } from '#renderer';
import { realClock, stableStringify, type Clock, type KubeObject } from '#kube-core';
import {
  isConflict,
  type Client,
  type EventRecorder,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  type RestMapper,
} from '#runtime';
import { applyIntent, errorMessage, isUpToDate, type ApplyOutcome } from '../apply/applier.js';
import { identityKey, resourceKey } from '../apply/identity.js';
import { planIntents, unrecordedUnowned } from '../apply/plan.js';
import { prune } from '../apply/pruner.js';
import { APPLICATIONS } from '../constants.js';
import type { OwnedWatches } from '../host/owned-watches.js';
import { finalize } from './finalize.js';
import { OwnWrites } from './own-writes.js';
import { cachedHealthEngine } from './health-cache.js';
import { ensureFinalizer } from './finalizer.js';
import { observeHealth, type LiveLookup } from './health-observer.js';
import { resolveApplication, unsupportedFields } from './resolve-application.js';
import type { RenderSource, Revisions } from '../revisions/revisions.js';
import { applyInOrder, dependencyWaits, dependsOnCondition, describeWait, withWaits } from './depends-on.js';
import { nextStatus, type Observation } from './status.js';

export interface ReconcilerDeps {
  client: Client;
  mapper: RestMapper;
  renderer: RendererHandle;
  catalog: DefinitionCatalog;
  events: EventRecorder;
  watches: OwnedWatches;
  /** Whether Applications in this namespace are ours to reconcile (--watch-namespace). */
  inScope(namespace: string): boolean;
  revisions: Revisions;
  /** How long a component waits for what it depends on before the controller gives up (--depends-on-timeout). */
  dependsOnTimeoutMs: number;
  /** Time of status stamps and dependsOn waits (default the wall clock). */
  clock?: Clock;
}

/** While something is unhealthy and may not send events (objects in other namespaces), look again this often. */
const UNHEALTHY_RECHECK_MS = 10_000;

/**
 * One reconcile of an Application (DESIGN, "One reconcile of an
 * Application"): read from the cache, resolve, render, apply, prune,
 * observe, write status only when it changed. Level-triggered: it never
 * asks what changed, only what is wanted and what is there.
 */
export class ApplicationReconciler implements Reconciler {
  private readonly health: RendererHandle['health'];
  private readonly ownWrites = new OwnWrites();

  constructor(private readonly deps: ReconcilerDeps) {
    this.health = cachedHealthEngine(deps.renderer.health);
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
    if (cached.metadata?.deletionTimestamp) return finalize(this.deps, cached, ctx.log);
    let app = await ensureFinalizer(this.deps.client, cached);
    if (app !== cached) this.ownWrites.remember(key, cached, app);
    const previous = app.status as ApplicationStatus | undefined;
    const unsupported = unsupportedFields(app as unknown as Application);

    const chosen = await this.deps.revisions.source(app, this.deps.catalog);
    if (chosen.app !== app) app = this.writeOwn(app, chosen.app);
    const { source } = chosen;
    const resolved = resolveApplication(source.app, source.catalog);
    if (!resolved.spec)
      return this.renderFailed(
        app,
        resolved.errors.map((e) => e.message),
        unsupported,
        source,
      );
    const pending = await this.deps.revisions.next(app, source, resolved.definitions);
    const { revision } = pending;
    let rendered: RenderedApp;
    try {
      rendered = await this.deps.renderer.renderer.render({
        ...resolved.spec,
        revision: { name: revision.name, number: revision.revision },
      });
    } catch (err) {
      if (!(err instanceof RenderErrors)) throw err;
      return this.renderFailed(
        app,
        err.errors.map((e) => e.message),
        unsupported,
        source,
      );
    }
    await this.deps.revisions.save(app, source, pending);

    let recorded = previous?.appliedResources ?? [];
    const { planned, failed } = await planIntents(rendered, app, this.deps);
    const ahead = unrecordedUnowned(planned, recorded);
    if (ahead.length > 0) {
      recorded = [...recorded, ...ahead];
      const status = { ...previous, appliedResources: recorded };
      app = this.writeOwn(app, await this.deps.client.updateStatus(APPLICATIONS, { ...app, status }));
    }
    const uids = new Set(recorded.map((r) => r.uid).filter((u): u is string => Boolean(u)));
    const live: LiveLookup = async (o) =>
      (await this.live(o as KubeObject)) as Awaited<ReturnType<LiveLookup>>;
    const ordered = await applyInOrder(rendered, planned, {
      apply: (p) => applyIntent(this.deps.client, p.intent, p.live, app, uids),
      upToDate: (p) => isUpToDate(p.intent, p.live),
      health: async (name) => {
        const only = { ...rendered, components: rendered.components.filter((c) => c.name === name) };
        return (await observeHealth(only, live, this.health))[0];
      },
      recorded,
    });
    const outcomes = [...failed, ...ordered.outcomes];
    const { applied, problems, retry, requeue } = await this.record(app, outcomes, recorded);
    const changed = outcomes.filter((o) => o.result === 'applied');
    if (changed.length > 0) {
      const objects = changed.map((o) => describeRef(o.applied!));
      ctx.log.info('applied', { revision: revision.name, objects });
      this.deps.events.event(app, 'Normal', 'Applied', `${revision.name}: applied ${objects.join(', ')}`);
    }

    const timeout = this.deps.dependsOnTimeoutMs;
    const { waits, timedOutNow, nextDeadlineMs } = dependencyWaits(
      ordered.held,
      previous?.waiting,
      revision.revision,
      this.clock.now(),
      timeout,
    );
    for (const w of timedOutNow)
      this.deps.events.event(app, 'Warning', 'DependencyTimeout', describeWait(w, ordered.held, timeout));
    const usesDependsOn = rendered.app.components.some((c) => c.dependsOn.length > 0);
    const services = withWaits(
      await observeHealth(rendered, live, this.health),
      waits,
      ordered.held,
      timeout,
    );
    const written = await this.writeStatus(app, {
      generation: app.metadata?.generation,
      renderErrors: [],
      revision,
      applyProblems: problems,
      applied,
      services,
      unsupported,
      waits,
      conditions: [
        ...(usesDependsOn ? [dependsOnCondition(waits, ordered.held, timeout)] : []),
        ...optional(this.deps.revisions.condition(previous, source, pending)),
      ],
    });
    const finished = await this.deps.revisions.finish(written.app, source, pending);
    if (finished !== written.app) this.writeOwn(written.app, finished);
    if (requeue) return requeue;
    if (retry) return { requeue: true };
    if (written.status.status !== 'running')
      return { requeueAfter: Math.min(UNHEALTHY_RECHECK_MS, nextDeadlineMs ?? UNHEALTHY_RECHECK_MS) };
  }

  private get clock(): Clock {
    return this.deps.clock ?? realClock;
  }

  /**
   * What the application now holds, for `status.appliedResources`: what was
   * applied, plus what was recorded before and is still there (its prune
   * pending, or skipped because an apply failed or the spec moved on).
   */
  private async record(
    app: KubeObject,
    outcomes: readonly ApplyOutcome[],
    recorded: readonly AppliedResource[],
  ): Promise<{ applied: AppliedResource[]; problems: string[]; retry: boolean; requeue?: Result }> {
    const previous = app.status as ApplicationStatus | undefined;
    const problems = outcomes.filter((o) => o.message).map((o) => o.message!);
    const applied = outcomes.filter((o) => o.applied).map((o) => o.applied!);
    const wanted = new Set(outcomes.map((o) => identityKey(o.intent.object)));
    const unwanted = recorded.filter((r) => !wanted.has(resourceKey(r)));
    let requeue: Result | undefined;
    // API failures are retried with backoff; an object owned by someone else waits for a change instead.
    let retry = outcomes.some((o) => o.result === 'failed');
    if (problems.length === 0 && unwanted.length > 0) {
      // Prune only against the newest spec: if the app changed since this render, the next reconcile decides.
      if (await this.isLatest(app)) {
        const pruned = await prune(this.deps.client, this.deps.mapper, app, recorded, wanted);
        applied.push(...pruned.kept);
        problems.push(...pruned.errors);
        retry ||= pruned.errors.length > 0;
        if (pruned.deleted.length > 0)
          this.deps.events.event(
            app,
            'Normal',
            'Pruned',
            `deleted ${pruned.deleted.map(describeRef).join(', ')}`,
          );
      } else {
        applied.push(...unwanted);
        requeue = { requeue: true };
      }
    } else if (problems.length > 0) {
      // Keep the record of everything not re-applied, so nothing applied before is forgotten.
      const now = new Set(applied.map(resourceKey));
      applied.push(...recorded.filter((r) => !now.has(resourceKey(r))));
      const before = previous?.conditions?.find((c) => c.type === 'Applied');
      if (before?.message !== problems.join('\n'))
        this.deps.events.event(app, 'Warning', 'ApplyFailed', problems.join('; '));
    }
    return { applied, problems, retry, requeue };
  }

  private async renderFailed(
    app: KubeObject,
    errors: string[],
    unsupported: string[],
    source: RenderSource,
  ): Promise<void> {
    const abandoned = await this.deps.revisions.abandon(app, source, errors);
    if (abandoned !== app) app = this.writeOwn(app, abandoned);
    const previous = app.status as ApplicationStatus | undefined;
    const before = previous?.conditions?.find((c) => c.type === 'Rendered');
    const message = errors.join('\n');
    if (before?.message !== message || before?.observedGeneration !== app.metadata?.generation)
      this.deps.events.event(app, 'Warning', 'RenderFailed', message);
    await this.writeStatus(app, {
      generation: app.metadata?.generation,
      renderErrors: errors,
      applyProblems: [],
      unsupported,
      conditions: optional(this.deps.revisions.condition(previous, source)),
    });
    // Nothing to retry: the next change of the app or a definition enqueues it again.
  }

  /** Returns the status and the Application as written (unchanged when the status was). */
  private async writeStatus(
    app: KubeObject,
    o: Observation,
  ): Promise<{ status: ApplicationStatus; app: KubeObject }> {
    const previous = app.status as ApplicationStatus | undefined;
    const now = new Date(this.clock.now()).toISOString();
    const status = nextStatus(previous, o, now);
    if (stableStringify(status) === stableStringify(previous ?? {})) return { status, app };
    return {
      status,
      app: this.writeOwn(app, await this.deps.client.updateStatus(APPLICATIONS, { ...app, status })),
    };
  }

  /** Remembers a write of the Application so the next reconcile does not start from the stale cache. */
  private writeOwn(before: KubeObject, after: KubeObject): KubeObject {
    this.ownWrites.remember(`${before.metadata?.namespace}/${before.metadata?.name}`, before, after);
    return after;
  }

  private async live(obj: KubeObject): Promise<KubeObject | undefined> {
    try {
      const kind = await this.deps.mapper.kindFor(obj);
      return await this.deps.client.get(
        kind,
        kind.namespaced ? obj.metadata?.namespace : undefined,
        obj.metadata!.name!,
      );
    } catch {
      return undefined; // health then says it does not exist yet
    }
  }

  /** True when the server's Application is still at the generation this reconcile rendered. */
  private async isLatest(app: KubeObject): Promise<boolean> {
    const fresh = await this.deps.client
      .resource(APPLICATIONS)
      .get(app.metadata?.namespace, app.metadata!.name!);
    return fresh.metadata?.generation === app.metadata?.generation;
  }
}

const optional = <T>(v: T | undefined): T[] => (v === undefined ? [] : [v]);

function describeRef(r: AppliedResource): string {
  return `${r.kind} "${r.namespace ? `${r.namespace}/` : ''}${r.name}"`;
}
