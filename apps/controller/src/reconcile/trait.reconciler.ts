import type { ApplicationStatus, Condition, Trait } from '#api';
import { type KubeObject, jsonEqual } from '#kube-core';
import type { Client, ReconcileContext, Reconciler, Request, Result } from '#runtime';
import { TRAITS } from '#api';
import { mergeConditions, type ConditionInput } from '../status/conditions.js';
import { settleErrors } from '../errors.js';
import { joinApplication, joinComponent, rendererOf, type TraitVerdict } from '../join/join.js';
import type { JoinSources } from '../join/sources.js';

export interface TraitReconcilerDeps {
  client: Client;
  sources: JoinSources;
  inScope(namespace: string): boolean;
  now?: () => string;
}

/** Where a Trait lands: its verdict from the same join its target renders with, or why there is none. */
interface Located {
  owner?: KubeObject;
  verdict?: TraitVerdict;
  /** Set when the target does not exist. */
  notFound?: string;
  /** Set when the target exists but is not rendered where the Trait points (its Component renders elsewhere). */
  notRendered?: string;
}

/**
 * A standalone Trait's status. The Trait itself is rendered by its target
 * (an Application or a standalone Component); this reconciler only tells
 * the operator what became of it: `TargetFound`, `Accepted` (applies to the
 * workload, no conflict with an older Trait), `Applied` (the target's last
 * apply) and `Healthy` (the trait's health on the target).
 */
export class TraitReconciler implements Reconciler {
  constructor(private readonly deps: TraitReconcilerDeps) {}

  reconcile(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    return settleErrors(ctx, () => this.reconcileOnce(request));
  }

  private async reconcileOnce(request: Request): Promise<void> {
    if (!this.deps.inScope(request.namespace)) return;
    const trait = await this.deps.client.get(TRAITS, request.namespace, request.name);
    if (!trait || trait.metadata?.deletionTimestamp) return; // its target re-renders without it
    const located = locate(this.deps.sources, trait);
    const previous = trait.status as { conditions?: Condition[] } | undefined;
    const generation = trait.metadata?.generation;
    const now = (this.deps.now ?? (() => new Date().toISOString()))();
    const status = {
      observedGeneration: generation,
      conditions: mergeConditions(previous?.conditions, conditionsOf(trait, located), generation, now),
      ...(located.verdict?.accepted ? { renderedBy: located.verdict.renderedBy } : {}),
    };
    if (!jsonEqual(status, trait.status ?? {}))
      await this.deps.client.updateStatus(TRAITS, { ...trait, status });
  }
}

export function locate(src: JoinSources, trait: Trait): Located {
  const ns = trait.metadata.namespace!;
  const { component, application } = trait.spec.target;
  const find = (verdicts: readonly TraitVerdict[]) =>
    verdicts.find((v) => v.trait.metadata.uid === trait.metadata.uid);
  if (application) {
    const app = src.application(ns, application);
    if (!app || app.metadata.deletionTimestamp)
      return { notFound: `no Application "${application}" in namespace "${ns}"` };
    if (!app.spec.components.some((c) => c.name === component))
      return { notFound: `Application "${application}" has no component "${component}"` };
    const joined = joinApplication(src, app);
    const verdict = find(joined.verdicts);
    if (verdict) return { owner: app, verdict };
    const why = joined.conditions.find((c) => c.type === 'ComponentRefs')?.message;
    return {
      notRendered: `component "${component}" is not rendered by Application "${application}"${why ? `: ${why}` : ''}`,
    };
  }
  const standalone = src.component(ns, component);
  if (!standalone) return { notFound: `no Component "${component}" in namespace "${ns}"` };
  const renderer = rendererOf(src, ns, component)!;
  if (renderer.kind === 'Application')
    return {
      owner: renderer.app,
      verdict: find(joinApplication(src, renderer.app).verdicts),
    };
  return {
    owner: standalone,
    verdict: find(joinComponent(src, standalone).verdicts),
  };
}

function conditionsOf(trait: KubeObject, located: Located): ConditionInput[] {
  if (located.notFound)
    return [
      { type: 'TargetFound', status: 'False', reason: 'TargetNotFound', message: located.notFound },
      { type: 'Accepted', status: 'False', reason: 'TargetNotFound' },
      { type: 'Applied', status: 'False', reason: 'TargetNotFound' },
    ];
  const { verdict, owner } = located;
  const found: ConditionInput = {
    type: 'TargetFound',
    status: 'True',
    reason: 'TargetFound',
    ...(verdict ? { message: `${verdict.renderedBy.kind} "${verdict.renderedBy.name}"` } : {}),
  };
  if (!verdict || !owner)
    return [
      found,
      { type: 'Accepted', status: 'False', reason: 'NotRendered', message: located.notRendered },
      { type: 'Applied', status: 'False', reason: 'NotRendered' },
    ];
  if (!verdict.accepted)
    return [
      found,
      { type: 'Accepted', status: 'False', reason: verdict.reason, message: verdict.message },
      { type: 'Applied', status: 'False', reason: 'NotAccepted' },
    ];
  const status = owner.status as ApplicationStatus | undefined;
  // The render rejects a Trait whose properties do not validate by itself; the target's status says which.
  const rejected = status?.joined?.find(
    (j) =>
      j.kind === 'Trait' &&
      j.name === trait.metadata?.name &&
      j.rejected !== undefined &&
      j.generation === trait.metadata?.generation,
  );
  if (rejected)
    return [
      found,
      { type: 'Accepted', status: 'False', reason: 'InvalidProperties', message: rejected.rejected },
      { type: 'Applied', status: 'False', reason: 'NotAccepted' },
    ];
  const type = (trait as Trait).spec.type;
  const health = status?.services
    ?.find((s) => s.name === verdict.renderedBy.component)
    ?.traits?.find((t) => t.type === type);
  const conditions: ConditionInput[] = [
    found,
    { type: 'Accepted', status: 'True', reason: 'Accepted', message: verdict.message },
    appliedCondition(trait, status),
  ];
  if (health)
    conditions.push(
      health.healthy
        ? { type: 'Healthy', status: 'True', reason: 'Healthy', message: health.message }
        : { type: 'Healthy', status: 'False', reason: 'Unhealthy', message: health.message },
    );
  return conditions;
}

/**
 * `Applied`: the target's last apply, once its last successful render
 * included this Trait at its current generation (`status.joined`); before
 * that, pending (a failed render or apply is mirrored at once); while a
 * rollback pins an older version of it (or leaves it out), false with the reason.
 */
export function appliedCondition(trait: KubeObject, target: ApplicationStatus | undefined): ConditionInput {
  const applied = target?.conditions?.find((c) => c.type === 'Applied');
  const generation = trait.metadata?.generation;
  const joined = target?.joined?.find((j) => j.kind === 'Trait' && j.name === trait.metadata?.name);
  if (joined?.pinned && joined.generation !== generation)
    return {
      type: 'Applied',
      status: 'False',
      reason: 'PinnedByRollback',
      message:
        joined.generation === undefined
          ? 'left out: the target was rolled back to a revision without this Trait (until the Trait changes)'
          : `the target was rolled back: it renders this Trait as at generation ${joined.generation} (until the Trait changes)`,
    };
  const mirrored = applied && {
    type: 'Applied',
    status: applied.status,
    reason: applied.reason,
    message: applied.message,
  };
  // A failed render or apply is said as it is, whichever generation it was of.
  if (mirrored && applied.status !== 'True') return mirrored;
  if (!mirrored || joined?.generation !== generation)
    return {
      type: 'Applied',
      status: 'Unknown',
      reason: 'Pending',
      message: `the target has not rendered generation ${generation} of this Trait yet`,
    };
  return mirrored;
}
