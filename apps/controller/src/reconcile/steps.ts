import type { AppliedResource, ApplicationStatus } from '#api';
import type { RenderedApp } from '#renderer';
import { realClock, type Clock, type KubeObject } from '#kube-core';
import type { Logger, ResourceKind, Result } from '#runtime';
import { describeRef } from '../apply/identity.js';
import { LiveObjects } from '../apply/live.js';
import { ApplyDriver, applyDepsFor, plan, type Plan } from '../apply/stage.js';
import type { ApplyOutcome } from '../apply/applier.js';
import { WriteStreaks } from '../apply/write-streaks.js';
import { joinOwner, type InvalidTraits, type JoinedOwner } from '../join/join.js';
import { joinedStatus } from '../join/joined-status.js';
import type { OwnWrites } from '../load/own-writes.js';
import { cachedHealthEngine } from '../observe/health-cache.js';
import { observeHealth, type LiveLookup } from '../observe/health.js';
import { pruneAndReport, type Pruned } from '../prune/prune-and-report.js';
import { KeptRenders } from '../render/kept-renders.js';
import { render } from '../render/render.js';
import { ResolveMemo, resolveApplication, type Resolved } from '../resolve/resolve.js';
import type { RevisionRecord } from '../revisions/keeper.js';
import { StatusWriter } from '../status/writer.js';
import { DependsOnWorkflow } from '../workflow/depends-on.js';
import type { Workflow, WorkflowReport } from '../workflow/workflow.js';
import type { Loaded, Reconciliation, StageDeps } from './context.js';
import { inputsOf, Settled } from './settled.js';

/**
 * While something is unhealthy and its changes may not send this owner
 * events (an object someone else holds, one that could not be read), look
 * again this often. Otherwise the owned watches' events wake it.
 */
const UNHEALTHY_RECHECK_MS = 10_000;

/** Step 7's output. */
interface Applied {
  outcomes: ApplyOutcome[];
  report: WorkflowReport;
}

/**
 * One reconcile as numbered steps, shared by Applications and standalone
 * Components (a one-component application); step 1 is the owner kind's:
 *
 *  1. load and finalize (ApplicationReconciler, ComponentReconciler)
 *  2. join its Components and Traits        6. plan
 *  3. resolve its definitions               7. apply, as the workflow decides
 *  4. render                                8. prune
 *  5. record the revision                   9. observe health
 *                                          10. write status
 *
 * Level-triggered: each step reads what is wanted and what is there, never
 * what changed. A failed render is terminal (a condition; the next change
 * of what it reads tries again); API errors are thrown to the queue, which
 * retries with backoff; a 409 means the cache was stale and it requeues.
 */
export class ReconcileSteps {
  readonly status: StatusWriter;
  readonly live: LiveObjects;
  private readonly health: ReturnType<typeof cachedHealthEngine>;
  private readonly settled = new Settled();
  private readonly renders: KeptRenders;
  private readonly resolver: ResolveMemo;
  private readonly workflow: Workflow;
  private readonly clock: Clock;
  private readonly streaks: WriteStreaks;

  constructor(
    private readonly deps: StageDeps,
    private readonly kind: ResourceKind,
    ownWrites: OwnWrites,
  ) {
    this.clock = deps.clock ?? realClock;
    this.health = cachedHealthEngine(deps.renderer.health);
    this.renders = new KeptRenders(deps.renderer.renderer, deps.clock);
    this.resolver = new ResolveMemo({ clock: deps.clock });
    this.status = new StatusWriter(deps.client, kind, ownWrites, this.clock);
    this.live = new LiveObjects(deps);
    this.workflow = deps.workflow ?? new DependsOnWorkflow(deps.dependsOnTimeoutMs);
    this.streaks = new WriteStreaks(this.clock);
  }

  /** Steps 2 to 10 for an owner step 1 loaded. */
  async run(loaded: Loaded, log: Logger): Promise<Result | void> {
    const owner = loaded.owner;
    const r: Reconciliation = {
      key: `${owner.metadata?.namespace}/${owner.metadata?.name}`,
      log,
      loaded,
      owner,
      previous: owner.status as ApplicationStatus | undefined,
      unwatched: false,
    };
    // 2-4. Join, resolve, render. A standalone Trait the render blames is left out of
    // the join and the three run again without it; each pass leaves out one more, so this ends.
    let excluded: InvalidTraits = new Map();
    let reads: string | undefined;
    for (let pass = 0; ; pass++) {
      const joined = joinOwner(loaded.join, excluded);
      const resolved = this.resolve(loaded, joined);
      if (pass === 0) {
        reads = await this.reads(r, joined, resolved);
        // Read the same as a reconcile that found nothing to do: nothing to do, and its render is not needed.
        if (this.settled.is(r.key, reads)) {
          this.renders.drop(r.key);
          return;
        }
        this.settled.forget(r.key);
      }
      if (!resolved.spec) return this.renderFailed(r, joined, resolved.errors);
      const record = await loaded.revisions.begin(
        r.owner,
        resolved.definitions,
        joined.revisionInputs,
        joined.pinned,
      );
      const traits = joined.revisionInputs?.traits;
      const out = await render(this.renders, r.key, resolved.spec, record.revision, traits);
      if ('rendered' in out) {
        const { result, quiet } = await this.rollOut(r, joined, record, out.rendered);
        if (quiet && !result && pass === 0) this.settled.remember(r.key, reads);
        return result;
      }
      if (out.blamed.size === 0) return this.renderFailed(r, joined, out.errors);
      excluded = new Map([...excluded, ...out.blamed]);
    }
  }

  /** Forgets what an owner's last reconcile read and rendered (it is gone). */
  forget(owner: { namespace: string; name: string }): void {
    const key = `${owner.namespace}/${owner.name}`;
    this.settled.forget(key);
    this.renders.drop(key);
    this.resolver.forget({ kind: this.kind.kind, metadata: owner });
  }

  /** Steps 5 to 10; `quiet` when it wrote nothing and had nothing to report or retry. */
  private async rollOut(
    r: Reconciliation,
    joined: JoinedOwner,
    record: RevisionRecord,
    rendered: RenderedApp,
  ): Promise<{ result: Result | void; quiet: boolean }> {
    const { previous, loaded } = r;
    // 5. Record the revision: written only once its render succeeded.
    await record.record();

    // 6. Plan; objects about to be created are recorded before they are.
    let recorded = previous?.appliedResources ?? [];
    const planned = await plan(rendered, r.owner, recorded, joined.fromComponents, this.deps);
    if (planned.ahead.length > 0) {
      recorded = [...recorded, ...planned.ahead];
      r.owner = await this.status.replace(r.owner, { ...previous, appliedResources: recorded });
    }
    const written = r.owner;

    // 7. Apply, as the workflow decides.
    const live = this.liveLookup(r);
    const applied = await this.apply(r, rendered, planned, recorded, joined, live, record.revision.revision);

    // 8. Prune.
    const pruned = await pruneAndReport(
      { ...this.deps, live: (o) => this.live.get(o), isLatest: (o) => this.isLatest(o) },
      r.owner,
      applied.outcomes,
      recorded,
      loaded.release,
    );
    const changed = applied.outcomes.filter((o) => o.result === 'applied');
    if (changed.length > 0) {
      const objects = changed.map((o) => describeRef(o.applied!));
      r.log.info('applied', { revision: record.revision.name, objects });
      this.deps.events.event(
        r.owner,
        'Normal',
        'Applied',
        `${record.revision.name}: applied ${objects.join(', ')}`,
      );
    }

    // 9. Observe health; a component the workflow holds says what it waits for.
    const { report } = applied;
    const services = (await observeHealth(rendered, live, this.health)).map((s) => {
      const held = report.messages.get(s.name);
      return held === undefined ? s : { ...s, healthy: false, message: held };
    });

    // 10. Write status, then what follows the revision going live.
    const status = await this.status.write(r.owner, {
      generation: r.owner.metadata?.generation,
      renderErrors: [],
      revision: record.revision,
      applyProblems: pruned.problems,
      ...(pruned.problems.length > 0 ? { applyReason: pruned.reason } : {}),
      applied: pruned.applied,
      services,
      unsupported: loaded.unsupported,
      waits: report.waits,
      joined: joinedStatus(joined.revisionInputs, joined.pinned, joined.rejected),
      extra: [
        ...loaded.conditions,
        ...joined.conditions,
        ...report.conditions,
        ...record.conditions(previous),
      ],
    });
    const finished = await record.finish(status.owner);
    if (finished !== status.owner) this.status.remember(status.owner, finished);
    r.owner = finished;
    const quiet =
      !record.isNew &&
      planned.ahead.length === 0 &&
      changed.length === 0 &&
      pruned.problems.length === 0 &&
      report.waits.length === 0 &&
      finished === written;
    return { result: this.next(r, pruned, report, status.status, applied.outcomes), quiet };
  }

  /** Step 3, resolve: the joined owner against its definitions. */
  private resolve(loaded: Loaded, joined: JoinedOwner): Resolved {
    return loaded.memo
      ? this.resolver.resolve(joined.owner, loaded.catalog, joined.objects)
      : resolveApplication(joined.owner, loaded.catalog, joined.objects);
  }

  /** Step 7, apply: the workflow decides what is applied now; the driver applies it. */
  private async apply(
    r: Reconciliation,
    rendered: RenderedApp,
    planned: Plan,
    recorded: readonly AppliedResource[],
    joined: JoinedOwner,
    live: LiveLookup,
    revision: number,
  ): Promise<Applied> {
    const health = async (name: string) => {
      const only = { ...rendered, components: rendered.components.filter((c) => c.name === name) };
      return (await observeHealth(only, live, this.health))[0];
    };
    const driver = new ApplyDriver(
      planned.planned,
      applyDepsFor(this.deps.client, r.owner, recorded, joined.fromComponents, health, this.streaks),
    );
    const report = await this.workflow.run({
      components: rendered.app.components,
      revision,
      previousWaits: r.previous?.waiting,
      nowMs: this.clock.now(),
      upToDate: (c) => driver.upToDate(c),
      health: (c) => driver.health(c),
      apply: (req) => driver.apply(req),
      hold: (h) => driver.hold(h),
      event: (type, reason, message) => this.deps.events.event(r.owner, type, reason, message),
    });
    return { outcomes: [...planned.failed, ...(await driver.finish())], report };
  }

  /** When to look again: retries and requeues first; a timer only for what sends no event. */
  private next(
    r: Reconciliation,
    pruned: Pruned,
    report: WorkflowReport,
    status: ApplicationStatus,
    outcomes: readonly ApplyOutcome[],
  ): Result | undefined {
    if (pruned.requeue) return pruned.requeue;
    if (pruned.retry) return { requeue: true };
    if (status.status !== 'running') {
      // An object whose writes did not stick is written again once its backoff ends.
      let retryAt = Infinity;
      for (const o of outcomes) if (o.retryAtMs !== undefined) retryAt = Math.min(retryAt, o.retryAtMs);
      const after = Math.min(
        r.unwatched ? UNHEALTHY_RECHECK_MS : Infinity,
        report.requeueAfterMs ?? Infinity,
        Math.max(0, retryAt - this.clock.now()),
      );
      if (after < Infinity) return { requeueAfter: after };
    }
    return undefined;
  }

  /** A render (or resolve) that failed: terminal; the last good version keeps running and keeps its status. */
  private async renderFailed(
    r: Reconciliation,
    joined: JoinedOwner,
    failures: readonly { message: string }[],
  ): Promise<void> {
    const errors = failures.map((e) => e.message);
    const revisions = await r.loaded.revisions.renderFailed(r.owner, errors);
    if (revisions.owner !== r.owner) r.owner = this.status.remember(r.owner, revisions.owner);
    const previous = r.owner.status as ApplicationStatus | undefined;
    const before = previous?.conditions?.find((c) => c.type === 'Rendered');
    const message = errors.join('\n');
    if (before?.message !== message || before?.observedGeneration !== r.owner.metadata?.generation)
      this.deps.events.event(r.owner, 'Warning', 'RenderFailed', message);
    await this.status.write(r.owner, {
      generation: r.owner.metadata?.generation,
      renderErrors: errors,
      applyProblems: [],
      unsupported: r.loaded.unsupported,
      extra: [...r.loaded.conditions, ...joined.conditions, ...revisions.conditions],
    });
    // Nothing to retry: the next change of the owner or a definition enqueues it again.
  }

  /** What this reconcile read, for the settled check (undefined: never skipped). */
  private reads(r: Reconciliation, joined: JoinedOwner, resolved: Resolved): Promise<string | undefined> {
    return inputsOf(
      {
        owner: r.owner,
        resolved,
        comparable: r.loaded.revisions.comparable,
        revisionInputs: joined.revisionInputs,
        pinned: joined.pinned,
        rejected: joined.rejected,
        fromComponents: joined.fromComponents,
        conditions: [...r.loaded.conditions, ...joined.conditions],
      },
      async (rec) => {
        const found = await this.live.read({ apiVersion: rec.apiVersion, kind: rec.kind, metadata: rec });
        return found.failed ? undefined : (found.object?.metadata?.resourceVersion ?? 'absent');
      },
    );
  }

  /** Live objects for health; notes when one's changes cannot wake this owner. */
  private liveLookup(r: Reconciliation): LiveLookup {
    return async (o) => {
      const found = await this.live.read(o as KubeObject);
      if (found.failed || (found.object && !this.deps.watches.reaches(found.object, r.owner)))
        r.unwatched = true;
      return found.object as Awaited<ReturnType<LiveLookup>>;
    };
  }

  /** True when the server's owner is still at the generation this reconcile rendered. */
  private async isLatest(owner: KubeObject): Promise<boolean> {
    const fresh = await this.deps.client
      .resource(this.kind)
      .get(owner.metadata?.namespace, owner.metadata!.name!);
    return fresh.metadata?.generation === owner.metadata?.generation;
  }
}
