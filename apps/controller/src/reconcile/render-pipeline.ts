import type { Application, ApplicationStatus } from '#api';
import { RenderErrors, type DefinitionCatalog, type RenderedApp, type RendererHandle } from '#renderer';
import { realClock, type Clock, type KubeObject, jsonEqual } from '#kube-core';
import type { Client, EventRecorder, ReconcileContext, ResourceKind, Result, RestMapper } from '#runtime';
import { applyIntent, isUpToDate } from '../apply/applier.js';
import { describeRef } from '../apply/identity.js';
import { planIntents, unrecorded } from '../apply/plan.js';
import { ANNOTATIONS } from '#api';
import type { OwnedWatches } from '../host/owned-watches.js';
import type { RenderSource, Revisions, PendingRevision } from '../revisions/revisions.js';
import type { JoinedInputs } from '../revisions/snapshot.js';
import type { ConditionInput } from './conditions.js';
import type { InvalidTraits } from './join.js';
import { blamedTraits, joinedStatus, type RejectedTrait } from './joined-status.js';
import { applyInOrder, dependencyWaits, dependsOnCondition, describeWait, withWaits } from './depends-on.js';
import { cachedHealthEngine } from './health-cache.js';
import { holdings } from './holdings.js';
import { KeptRenders } from './kept-renders.js';
import { observeHealth, type LiveLookup } from './health-observer.js';
import type { OwnWrites } from './own-writes.js';
import type { Resolved } from './resolve-application.js';
import { nextRevision } from './revision.js';
import { inputsOf, Settled } from './settled.js';
import { nextStatus, type Observation } from './status.js';

export interface PipelineDeps {
  client: Client;
  mapper: RestMapper;
  renderer: RendererHandle;
  catalog: DefinitionCatalog;
  events: EventRecorder;
  watches: OwnedWatches;
  /** ApplicationRevisions and rollback, for owners that pass a `source`. */
  revisions: Revisions;
  /** How long a component waits for what it depends on before the controller gives up (--depends-on-timeout). */
  dependsOnTimeoutMs: number;
  /** Time of status stamps and dependsOn deadlines (default the wall clock). */
  clock?: Clock;
}

/** What one run renders, for whom, and what the owner's kind adds to its status. */
export interface PipelineInput {
  /** The Application, or a standalone Component deploying as a one-component application; finalizer set. */
  owner: KubeObject;
  resolved: Resolved;
  /** Fields stored but not run (`spec.policies`, `spec.workflow`): a `Supported: False` condition. */
  unsupported: string[];
  /** Conditions of the owner's own (joined Components and Traits), after the standard four. */
  extraConditions?: ConditionInput[];
  /** Extra rendered inputs the revision covers: the joined Components' and Traits' specs, stored in its spec. */
  revisionInputs?: JoinedInputs;
  /**
   * Where the render's inputs come from (an Application's own, or a stored
   * revision's on rollback): set, revisions are recorded as
   * ApplicationRevisions; absent (a standalone Component), only numbered.
   */
  source?: RenderSource;
  /**
   * Component name in the owner → the standalone Component it renders. Their
   * objects are marked with it (ANNOTATIONS.fromComponent) and taken over in
   * place from whoever held them: this owner is now the one that renders it.
   */
  fromComponents?: ReadonlyMap<string, string>;
  /** Is this live object, no longer wanted, handed to another owner instead of pruned? (a Component taking its objects back) */
  release?: (live: KubeObject) => boolean;
  /**
   * The same input joined again without the standalone Traits the render
   * blamed: a Trait whose properties do not validate (or whose output
   * cannot be applied) is rejected by itself, and the rest still renders.
   */
  rejoin?: (invalid: InvalidTraits) => PipelineInput;
  /** The standalone Traits this input left out because an earlier render blamed them (for `status.joined`). */
  rejected?: readonly RejectedTrait[];
}

/**
 * While something is unhealthy and its changes may not send this owner
 * events (an object someone else holds, one that could not be read), look
 * again this often. Otherwise the owned watches' events wake it.
 */
const UNHEALTHY_RECHECK_MS = 10_000;

const keyOf = (o: KubeObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;

/**
 * resolve → render → plan/apply → prune → observe → status, for any owner
 * whose status has the Application's shape (Applications and standalone
 * Components). Level-triggered: it never asks what changed, only what is
 * wanted and what is there. Throws on API errors (the caller's queue retries
 * with backoff); a 409 means the cache was stale and the caller requeues.
 */
export class RenderPipeline {
  private readonly health: RendererHandle['health'];
  private readonly settled = new Settled();
  private readonly renders: KeptRenders;

  constructor(
    private readonly deps: PipelineDeps,
    /** Where the owner's status is written (APPLICATIONS or COMPONENTS). */
    private readonly kind: ResourceKind,
    private readonly ownWrites: OwnWrites,
  ) {
    this.health = cachedHealthEngine(deps.renderer.health);
    this.renders = new KeptRenders(deps.renderer.renderer, deps.clock);
  }

  async run(input: PipelineInput, ctx: ReconcileContext): Promise<Result | void> {
    const key = keyOf(input.owner);
    const inputs = await inputsOf(input, async (r) => {
      const found = await this.lookup({ apiVersion: r.apiVersion, kind: r.kind, metadata: r });
      return found.failed ? undefined : (found.object?.metadata?.resourceVersion ?? 'absent');
    });
    // Read the same as a reconcile that found nothing to do: nothing to do, and its render is not needed.
    if (this.settled.is(key, inputs)) {
      this.renders.drop(key);
      return;
    }
    this.settled.forget(key);
    const { result, quiet } = await this.runOnce(input, ctx);
    if (quiet && !result) this.settled.remember(key, inputs);
    return result;
  }

  /** Forgets what an owner's last reconcile read (it is gone). */
  forget(owner: { namespace: string; name: string }): void {
    const key = `${owner.namespace}/${owner.name}`;
    this.settled.forget(key);
    this.renders.drop(key);
  }

  /** One run; `quiet` when it wrote nothing and had nothing to report or retry. */
  private async runOnce(
    input: PipelineInput,
    ctx: ReconcileContext,
  ): Promise<{ result: Result | void; quiet: boolean }> {
    let app = input.owner;
    const previous = app.status as ApplicationStatus | undefined;
    const { resolved, unsupported } = input;
    const extra = input.extraConditions ?? [];
    if (!resolved.spec)
      return this.loud(
        await this.renderFailed(
          app,
          resolved.errors.map((e) => e.message),
          unsupported,
          extra,
          input.source,
        ),
      );
    const pending: PendingRevision = input.source
      ? await this.deps.revisions.next(app, input.source, resolved.definitions, input.revisionInputs)
      : { revision: nextRevision(app as unknown as Application, resolved.definitions, input.revisionInputs) };
    const { revision } = pending;
    let rendered: RenderedApp;
    try {
      rendered = await this.renders.render(keyOf(app), resolved.spec, revision);
    } catch (err) {
      if (!(err instanceof RenderErrors)) throw err;
      const blamed = blamedTraits(err.errors, Object.keys(input.revisionInputs?.traits ?? {}));
      // Each retry leaves out at least one more Trait, so this ends.
      if (blamed.size > 0 && input.rejoin) return this.loud(await this.run(input.rejoin(blamed), ctx));
      return this.loud(
        await this.renderFailed(
          app,
          err.errors.map((e) => e.message),
          unsupported,
          extra,
          input.source,
        ),
      );
    }
    if (input.source) await this.deps.revisions.save(app, input.source, pending);

    let recorded = previous?.appliedResources ?? [];
    const from = input.fromComponents ?? new Map<string, string>();
    const { planned, failed } = await planIntents(markFromComponents(rendered, from), app, this.deps);
    const names = new Set(from.values());
    const adopt = (live: KubeObject) =>
      names.has(live.metadata?.annotations?.[ANNOTATIONS.fromComponent] ?? '');
    const ahead = unrecorded(planned, recorded, app);
    if (ahead.length > 0) {
      recorded = [...recorded, ...ahead];
      const status = { ...previous, appliedResources: recorded };
      app = this.writeOwn(app, await this.deps.client.updateStatus(this.kind, { ...app, status }));
    }
    const uids = new Set(recorded.map((r) => r.uid).filter((u): u is string => Boolean(u)));
    // Set when health read an object whose changes do not reach this owner (or failed to read one).
    let unwatched = false;
    const live: LiveLookup = async (o) => {
      const found = await this.lookup(o as KubeObject);
      if (found.failed || (found.object && !this.deps.watches.reaches(found.object, app))) unwatched = true;
      return found.object as Awaited<ReturnType<LiveLookup>>;
    };
    const ordered = await applyInOrder(rendered, planned, {
      apply: (p) => applyIntent(this.deps.client, p.intent, p.live, app, uids, adopt),
      upToDate: (p) => isUpToDate(p.intent, p.live),
      health: async (name) => {
        const only = { ...rendered, components: rendered.components.filter((c) => c.name === name) };
        return (await observeHealth(only, live, this.health))[0];
      },
      recorded,
    });
    const outcomes = [...failed, ...ordered.outcomes];
    const { applied, problems, retry, requeue } = await holdings(
      {
        ...this.deps,
        live: (o) => this.live(o),
        isLatest: (o) => this.isLatest(o),
      },
      app,
      outcomes,
      recorded,
      input.release,
    );
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
      joined: joinedStatus(input.revisionInputs, input.source?.pinned, input.rejected),
      extra: [
        ...extra,
        ...(usesDependsOn ? [dependsOnCondition(waits, ordered.held, timeout)] : []),
        ...(input.source ? optional(this.deps.revisions.condition(previous, input.source, pending)) : []),
      ],
    });
    let finished = written.app;
    if (input.source) {
      finished = await this.deps.revisions.finish(written.app, input.source, pending);
      if (finished !== written.app) this.writeOwn(written.app, finished);
    }
    const quiet =
      !pending.create &&
      ahead.length === 0 &&
      changed.length === 0 &&
      problems.length === 0 &&
      waits.length === 0 &&
      finished === app;
    if (requeue) return { result: requeue, quiet };
    if (retry) return { result: { requeue: true }, quiet };
    if (written.status.status !== 'running') {
      // Events of the objects it reads wake it; time-outs and what sends no event need a timer.
      const after = Math.min(unwatched ? UNHEALTHY_RECHECK_MS : Infinity, nextDeadlineMs ?? Infinity);
      if (after < Infinity) return { result: { requeueAfter: after }, quiet };
    }
    return { result: undefined, quiet };
  }

  private loud(result: Result | void): { result: Result | void; quiet: boolean } {
    return { result, quiet: false };
  }

  private get clock(): Clock {
    return this.deps.clock ?? realClock;
  }

  private async renderFailed(
    app: KubeObject,
    errors: string[],
    unsupported: string[],
    extra: ConditionInput[],
    source: RenderSource | undefined,
  ): Promise<void> {
    if (source) {
      const abandoned = await this.deps.revisions.abandon(app, source, errors);
      if (abandoned !== app) app = this.writeOwn(app, abandoned);
    }
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
      extra: [...extra, ...(source ? optional(this.deps.revisions.condition(previous, source)) : [])],
    });
    // Nothing to retry: the next change of the app or a definition enqueues it again.
  }

  /**
   * Writes the owner's status when it differs from what it has; returns the
   * status wanted and the owner as written (unchanged when the status was).
   */
  async writeStatus(
    app: KubeObject,
    o: Observation,
  ): Promise<{ status: ApplicationStatus; app: KubeObject }> {
    return this.writeStatusAs(app, nextStatus(app.status as ApplicationStatus | undefined, o, this.now()));
  }

  async writeStatusAs(
    app: KubeObject,
    status: ApplicationStatus,
  ): Promise<{ status: ApplicationStatus; app: KubeObject }> {
    if (jsonEqual(status, app.status ?? {})) return { status, app };
    return {
      status,
      app: this.writeOwn(app, await this.deps.client.updateStatus(this.kind, { ...app, status })),
    };
  }

  now(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Remembers a write of the owner so the next reconcile does not start from the stale cache. */
  writeOwn(before: KubeObject, after: KubeObject): KubeObject {
    this.ownWrites.remember(`${before.metadata?.namespace}/${before.metadata?.name}`, before, after);
    return after;
  }

  async live(obj: KubeObject): Promise<KubeObject | undefined> {
    return (await this.lookup(obj)).object;
  }

  /** The cached live object, if any; `failed` when it could not be read (health then says it does not exist yet). */
  private async lookup(obj: KubeObject): Promise<{ object?: KubeObject; failed?: true }> {
    try {
      const kind = await this.deps.mapper.kindFor(obj);
      const object = await this.deps.client.get(
        kind,
        kind.namespaced ? obj.metadata?.namespace : undefined,
        obj.metadata!.name!,
      );
      return { object };
    } catch {
      return { failed: true };
    }
  }

  /** True when the server's owner is still at the generation this reconcile rendered. */
  private async isLatest(app: KubeObject): Promise<boolean> {
    const fresh = await this.deps.client
      .resource(this.kind)
      .get(app.metadata?.namespace, app.metadata!.name!);
    return fresh.metadata?.generation === app.metadata?.generation;
  }
}

/** The rendered objects of Components with their mark (copies: the render cache's objects stay untouched). */
function markFromComponents(rendered: RenderedApp, from: ReadonlyMap<string, string>): RenderedApp {
  if (from.size === 0) return rendered;
  const objects = rendered.objects.map((o) => {
    const component = from.get(o.component);
    if (!component) return o;
    const metadata = o.object.metadata ?? {};
    const annotations = { ...metadata.annotations, [ANNOTATIONS.fromComponent]: component };
    return { ...o, object: { ...o.object, metadata: { ...metadata, annotations } } };
  });
  return { ...rendered, objects };
}

const optional = <T>(v: T | undefined): T[] => (v === undefined ? [] : [v]);
