import type { AppliedResource, Application, ApplicationStatus, Component } from '#api';
import { isControlledBy, type KubeObject } from '#kube-core';
import type { ReconcileContext, Reconciler, Request, Result } from '#runtime';
import { resourceKey } from '../apply/identity.js';
import { deleteIfOurs } from '../apply/pruner.js';
import { COMPONENTS } from '#api';
import { mergeConditions, type ConditionInput } from './conditions.js';
import { requeueOnConflict } from './conflict.js';
import { finalize } from './finalize.js';
import { ensureFinalizer } from './finalizer.js';
import {
  joinApplication,
  joinComponent,
  rejectedTraits,
  rendererOf,
  traitConditions,
  type InvalidTraits,
} from './join.js';
import { OwnWrites } from './own-writes.js';
import { describeRef } from '../apply/identity.js';
import { RenderPipeline, type PipelineInput } from './render-pipeline.js';
import { resolveApplication } from './resolve-application.js';
import type { ReconcilerDeps } from './application.reconciler.js';

/**
 * One reconcile of a standalone Component. Referenced by no Application, it
 * deploys as a one-component application it owns, through the same pipeline
 * as an Application. Referenced, the oldest referring Application renders it
 * (and takes its objects over in place); the Component's status then names
 * that Application and mirrors its health.
 */
export class ComponentReconciler implements Reconciler {
  private readonly ownWrites = new OwnWrites();
  private readonly pipeline: RenderPipeline;

  constructor(private readonly deps: ReconcilerDeps) {
    this.pipeline = new RenderPipeline(deps, COMPONENTS, this.ownWrites);
  }

  reconcile(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    return requeueOnConflict(ctx, () => this.reconcileOnce(request, ctx));
  }

  private async reconcileOnce(request: Request, ctx: ReconcileContext): Promise<Result | void> {
    if (!this.deps.inScope(request.namespace)) return;
    const key = `${request.namespace}/${request.name}`;
    const cached = this.ownWrites.fresher(
      key,
      await this.deps.client.get(COMPONENTS, request.namespace, request.name),
    );
    if (!cached || cached.metadata?.deletionTimestamp) this.pipeline.forget(request);
    if (!cached) return;
    // Deleting: what it still controls goes; what an Application took over stays with it.
    if (cached.metadata?.deletionTimestamp) return finalize(this.deps, COMPONENTS, cached, ctx.log);
    const component = await ensureFinalizer(this.deps.client, COMPONENTS, cached);
    if (component !== cached) this.ownWrites.remember(key, cached, component);
    const renderer = rendererOf(this.deps.sources, request.namespace, request.name);
    if (renderer?.kind === 'Application') {
      this.pipeline.forget(request);
      return this.renderedBy(component, renderer.app, renderer.entry);
    }
    const input = (invalid: InvalidTraits): PipelineInput => {
      const joined = joinComponent(this.deps.sources, component as unknown as Component, invalid);
      return {
        owner: component,
        resolved: resolveApplication(component, this.deps.catalog, joined.objects),
        unsupported: [],
        extraConditions: [
          { type: 'RenderedBy', status: 'True', reason: 'Standalone', message: 'deployed on its own' },
          ...joined.conditions,
        ],
        revisionInputs: joined.revisionInputs,
        fromComponents: joined.fromComponents,
        rejected: rejectedTraits(joined),
        rejoin: (more) => input(new Map([...invalid, ...more])),
      };
    };
    return this.pipeline.run(input(new Map()), ctx);
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
        this.pipeline.now(),
      ),
      services: service ? [service] : [],
      appliedResources: await this.handedOver(component, app, entry, previous?.appliedResources ?? []),
      ...(previous?.latestRevision ? { latestRevision: previous.latestRevision } : {}),
    };
    await this.pipeline.writeStatusAs(component, status);
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
      const live = await this.pipeline.live({ apiVersion: r.apiVersion, kind: r.kind, metadata: r });
      if (live && isControlledBy(live, owner.metadata!.uid!)) out.push(r);
    }
    return out;
  }
}
