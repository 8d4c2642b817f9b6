import type { AppliedResource, Application, ApplicationStatus, Component } from '#api';
import { isControlledBy, type KubeObject } from '#kube-core';
import type { ReconcileContext, Reconciler, Request, Result } from '#runtime';
import { describeRef, resourceKey } from '../apply/identity.js';
import { COMPONENTS } from '#api';
import { settleErrors } from '../errors.js';
import { joinApplication, rendererOf, traitConditions } from '../join/join.js';
import { deleteApplied } from '../load/delete-applied.js';
import { ensureFinalizer } from '../load/finalizer.js';
import { OwnWrites } from '../load/own-writes.js';
import { deleteIfOurs } from '../prune/pruner.js';
import { NumberedRevisions } from '../revisions/keeper.js';
import { mergeConditions, type ConditionInput } from '../status/conditions.js';
import type { ReconcilerDeps } from './application.reconciler.js';
import type { Loaded } from './context.js';
import { ReconcileSteps } from './steps.js';

const STANDALONE: ConditionInput = {
  type: 'RenderedBy',
  status: 'True',
  reason: 'Standalone',
  message: 'deployed on its own',
};
const NUMBERED = new NumberedRevisions();

/**
 * A standalone Component's reconcile. Referenced by no Application, it
 * deploys as a one-component application it owns: step 1 is its own, steps
 * 2 to 10 are the Application's (ReconcileSteps). Referenced, the oldest
 * referring Application renders it (and takes its objects over in place);
 * the Component's status then names that Application and mirrors its health.
 */
export class ComponentReconciler implements Reconciler {
  private readonly ownWrites = new OwnWrites<Component>();
  private readonly steps: ReconcileSteps;

  constructor(private readonly deps: ReconcilerDeps) {
    this.steps = new ReconcileSteps(deps, COMPONENTS, this.ownWrites);
  }

  reconcile(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    return settleErrors(ctx, async () => {
      const loaded = await this.load(request, ctx);
      return 'done' in loaded ? loaded.done : this.steps.run(loaded, ctx.log);
    });
  }

  /** Step 1: the Component from the cache; deleting, or rendered by an Application, it ends here. */
  private async load(request: Request, ctx: ReconcileContext): Promise<Loaded | { done: Result | void }> {
    if (!this.deps.inScope(request.namespace)) return { done: undefined };
    const key = `${request.namespace}/${request.name}`;
    const cached = this.ownWrites.fresher(
      key,
      await this.deps.client.get(COMPONENTS, request.namespace, request.name),
    );
    if (!cached || cached.metadata?.deletionTimestamp) this.steps.forget(request);
    if (!cached) return { done: undefined };
    // Deleting: what it still controls goes; what an Application took over stays with it.
    if (cached.metadata?.deletionTimestamp)
      return { done: await deleteApplied(this.deps, COMPONENTS, cached, ctx.log) };
    const component = await ensureFinalizer(this.deps.client, COMPONENTS, cached);
    if (component !== cached) this.ownWrites.remember(key, cached, component);
    const renderer = rendererOf(this.deps.sources, request.namespace, request.name);
    if (renderer?.kind === 'Application') {
      this.steps.forget(request);
      return { done: await this.renderedBy(component, renderer.app, renderer.entry) };
    }
    return {
      owner: component,
      join: { kind: 'Component', component, sources: this.deps.sources },
      catalog: this.deps.catalog,
      memo: false,
      unsupported: [],
      conditions: [STANDALONE],
      revisions: NUMBERED,
    };
  }

  /**
   * Rendered by an Application: status names it and mirrors its phase and
   * this component's health; the record keeps only what the Component still
   * controls (not yet taken over), so deleting the Component deletes nothing
   * the Application now holds.
   */
  private async renderedBy(component: KubeObject, app: Application, entry: string): Promise<void> {
    const previous = component.status as ApplicationStatus | undefined;
    const appStatus = app.status as ApplicationStatus | undefined;
    const verdicts = joinApplication(this.deps.sources, app).verdicts.filter(
      (v) => v.trait.spec.target.application === undefined,
    );
    const conditions: ConditionInput[] = [
      {
        type: 'RenderedBy',
        status: 'True',
        reason: 'Application',
        message: `Application "${app.metadata.name}" renders it as component "${entry}"`,
      },
      ...traitConditions(verdicts, []),
    ];
    const service = appStatus?.services?.find((s) => s.name === entry);
    const status: ApplicationStatus = {
      status: appStatus?.status ?? 'rendering',
      observedGeneration: component.metadata?.generation,
      conditions: mergeConditions(
        previous?.conditions,
        conditions,
        component.metadata?.generation,
        this.steps.status.now(),
      ),
      services: service ? [service] : [],
      appliedResources: await this.handedOver(component, app, entry, previous?.appliedResources ?? []),
      ...(previous?.latestRevision ? { latestRevision: previous.latestRevision } : {}),
    };
    await this.steps.status.writeAs(component, status);
  }

  /**
   * What the Component still controls once the Application renders it. Under
   * the same names the Application took everything over in place; under
   * another name (`{name: web, componentRef: api}`) its own objects are left,
   * and are deleted once the Application holds objects of that component (it
   * has applied it, so nothing it adopts is deleted under it).
   */
  private async handedOver(
    component: KubeObject,
    app: Application,
    entry: string,
    records: readonly AppliedResource[],
  ): Promise<AppliedResource[]> {
    const left = await this.stillControlled(component, records);
    const held = ((app.status as ApplicationStatus | undefined)?.appliedResources ?? []).filter(
      (r) => r.component === entry,
    );
    if (left.length === 0 || held.length === 0) return left;
    const holds = new Set(held.map(resourceKey));
    const kept: AppliedResource[] = [];
    for (const r of left) {
      if (
        holds.has(resourceKey(r)) ||
        !(await deleteIfOurs(this.deps.client, this.deps.mapper, component, r))
      )
        kept.push(r);
    }
    if (kept.length < left.length)
      this.deps.events.event(
        component,
        'Normal',
        'Pruned',
        `Application "${app.metadata.name}" renders it under another name: deleted ${left
          .filter((r) => !kept.includes(r))
          .map(describeRef)
          .join(', ')}`,
      );
    return kept;
  }

  private async stillControlled(
    owner: KubeObject,
    records: readonly AppliedResource[],
  ): Promise<AppliedResource[]> {
    const out: AppliedResource[] = [];
    for (const r of records) {
      const live = await this.steps.live.get({ apiVersion: r.apiVersion, kind: r.kind, metadata: r });
      if (live && isControlledBy(live, owner.metadata!.uid!)) out.push(r);
    }
    return out;
  }
}
