import type { RenderedApp } from '#renderer';
import type { KubeObject } from '#kube-core';
import type { Client, RestMapper } from '#runtime';
import { ANNOTATIONS, type AppliedResource } from '#api';
import { TerminalError } from '../errors.js';
import type { OwnedWatches } from '../host/owned-watches.js';
import type { ApplyRequest, ComponentApplied, Held, WorkflowRun } from '../workflow/workflow.js';
import { applyIntent, isUpToDate, type ApplyOutcome } from './applier.js';
import { identityKey, resourceKey } from './identity.js';
import { planIntents, unrecorded, type Planned } from './plan.js';
import type { WriteStreaks } from './write-streaks.js';

/** Step 6's output: each rendered object's intent and live state, and what to record before applying. */
export interface Plan {
  planned: Planned[];
  /** Objects whose kind is not served: failed outcomes, not applied. */
  failed: ApplyOutcome[];
  /** Objects about to be created that the owner's status does not record yet. */
  ahead: AppliedResource[];
}

/**
 * Step 6, plan: the render's objects (those of standalone Components marked
 * with their Component) mapped to their kinds, read from the cache, made
 * into intents; the owner's watches follow the kinds rendered.
 */
export async function plan(
  rendered: RenderedApp,
  owner: KubeObject,
  recorded: readonly AppliedResource[],
  fromComponents: ReadonlyMap<string, string>,
  deps: { client: Client; mapper: RestMapper; watches: OwnedWatches },
): Promise<Plan> {
  const { planned, failed } = await planIntents(markFromComponents(rendered, fromComponents), owner, deps);
  return { planned, failed, ahead: unrecorded(planned, recorded, owner) };
}

/** How the apply stage applies one planned object and reads a component's health. */
export interface ApplyDeps {
  apply(p: Planned): Promise<ApplyOutcome>;
  /** Whether applying would change nothing. */
  upToDate(p: Planned): boolean;
  health(component: string): Promise<{ healthy: boolean; message?: string }>;
  /** What the owner records: a held object keeps its record, so it is not pruned. */
  recorded: readonly AppliedResource[];
}

/** How one owner's intents are applied: over what it recorded, taking over only what it may (its ownership rules). */
export function applyDepsFor(
  client: Client,
  owner: KubeObject,
  recorded: readonly AppliedResource[],
  fromComponents: ReadonlyMap<string, string>,
  health: ApplyDeps['health'],
  streaks?: WriteStreaks,
): ApplyDeps {
  const uids = new Set(recorded.map((r) => r.uid).filter((u): u is string => Boolean(u)));
  const names = new Set(fromComponents.values());
  // A Component's objects move in place to whoever renders it now.
  const adopt = (live: KubeObject) =>
    names.has(live.metadata?.annotations?.[ANNOTATIONS.fromComponent] ?? '');
  return {
    apply: (p) => applyIntent(client, p.intent, p.live, owner, uids, adopt, streaks),
    upToDate: (p) => isUpToDate(p.intent, p.live),
    health,
    recorded,
  };
}

/**
 * Step 7's side of the workflow seam: applies what the workflow asks for,
 * component by component, and keeps the outcome of every planned object in
 * the order it was decided (the order `status.appliedResources` keeps).
 */
export class ApplyDriver implements Pick<WorkflowRun, 'upToDate' | 'health' | 'apply' | 'hold'> {
  readonly outcomes: ApplyOutcome[] = [];
  readonly held: Held[] = [];
  private readonly decided = new Set<string>();
  private readonly records: Map<string, AppliedResource>;

  private readonly byComponent = new Map<string, Planned[]>();

  constructor(
    private readonly planned: readonly Planned[],
    private readonly deps: ApplyDeps,
  ) {
    this.records = new Map(deps.recorded.map((r) => [resourceKey(r), r]));
    for (const p of planned) {
      const mine = this.byComponent.get(p.intent.component);
      if (mine) mine.push(p);
      else this.byComponent.set(p.intent.component, [p]);
    }
  }

  upToDate(component: string): boolean {
    return this.of(component).every((p) => this.deps.upToDate(p));
  }

  health(component: string): Promise<{ healthy: boolean; message?: string }> {
    return this.deps.health(component);
  }

  async apply(request: ApplyRequest): Promise<ComponentApplied> {
    if (request.properties !== undefined || request.namespace !== undefined)
      throw new TerminalError(
        `workflow: overriding the properties or namespace of "${request.component}" needs a step that renders it again`,
      );
    this.decided.add(request.component);
    const results: ApplyOutcome[] = [];
    for (const p of this.of(request.component)) results.push(await this.deps.apply(p));
    this.outcomes.push(...results);
    return {
      component: request.component,
      changed: results.some((o) => o.result === 'applied'),
      failed: results.some((o) => o.result === 'failed'),
    };
  }

  async hold(held: Held): Promise<void> {
    this.held.push(held);
    await this.keep(held.component);
  }

  /** The outcomes, once what the workflow left undecided is held too (no waits recorded for it). */
  async finish(): Promise<ApplyOutcome[]> {
    for (const p of this.planned) await this.keep(p.intent.component);
    return this.outcomes;
  }

  /** Holds a component: what would change waits with its record kept; the rest is applied (it writes nothing). */
  private async keep(component: string): Promise<void> {
    if (this.decided.has(component)) return;
    this.decided.add(component);
    for (const p of this.of(component)) {
      if (this.deps.upToDate(p)) this.outcomes.push(await this.deps.apply(p));
      else {
        const record = this.records.get(identityKey(p.intent.object));
        this.outcomes.push({ intent: p.intent, result: 'waiting', ...(record ? { applied: record } : {}) });
      }
    }
  }

  private of(component: string): readonly Planned[] {
    return this.byComponent.get(component) ?? [];
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
