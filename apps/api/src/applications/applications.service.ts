import { Injectable } from '@nestjs/common';
import type { Application } from '#api';
import { deepCopy, isJsonObject, mergePatch, type KubeObject } from '#kube-core';
import { EVENTS, isConflict, NAMESPACE_INDEX, NAMESPACES } from '#runtime';
import { ApiProblem, invalid } from '../http/problem.js';
import { ClusterService } from '../kube/cluster.service.js';
import {
  APP_NAME_LABEL,
  APPLICATION_REVISIONS,
  APPLICATIONS,
  CHANGE_SUMMARY_ANNOTATION,
  FIELD_MANAGER,
  ROLLBACK_ANNOTATION,
} from '../kube/kinds.js';
import type { ApplicationView } from './application.dto.js';
import { applicationView } from './application-view.js';
import { PreviewService, type Preview } from './preview.service.js';

/**
 * Applications: reads from the informer cache, writes to the API server as
 * field manager `oam-api`. Every write is validated and rendered first, so a
 * request that fails changes nothing.
 */
@Injectable()
export class ApplicationsService {
  constructor(
    private readonly cluster: ClusterService,
    private readonly preview: PreviewService,
  ) {}

  private get client() {
    return this.cluster.manager.client.resource(APPLICATIONS);
  }

  /** 404 for a namespace that does not exist (reads would otherwise look merely empty). */
  requireNamespace(namespace: string): void {
    if (!this.cluster.informer(NAMESPACES).indexer.get(undefined, namespace))
      throw new ApiProblem(404, `namespace "${namespace}" not found`);
  }

  list(namespace: string): ApplicationView[] {
    this.requireNamespace(namespace);
    return this.cluster
      .informer(APPLICATIONS)
      .indexer.byIndex(NAMESPACE_INDEX, namespace)
      .map(applicationView)
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  get(namespace: string, name: string): KubeObject {
    this.requireNamespace(namespace);
    const app = this.cluster.informer(APPLICATIONS).indexer.get(namespace, name);
    if (!app) throw new ApiProblem(404, `application "${name}" not found in namespace "${namespace}"`);
    return app;
  }

  async create(namespace: string, body: unknown): Promise<KubeObject> {
    this.requireNamespace(namespace);
    const app = this.preview.parse(body, namespace);
    await this.preview.render(app);
    return this.client.create(app as unknown as KubeObject, { fieldManager: FIELD_MANAGER });
  }

  /** PUT: the body replaces the spec, labels and annotations; its resourceVersion must be the live one. */
  async replace(namespace: string, name: string, body: unknown): Promise<KubeObject> {
    const live = this.get(namespace, name);
    const app = this.preview.parse(body, namespace);
    if (app.metadata.name !== name)
      throw invalid([
        { path: 'metadata.name', message: `is "${app.metadata.name}", but the URL says "${name}"` },
      ]);
    if (!app.metadata.resourceVersion)
      throw invalid([
        {
          path: 'metadata.resourceVersion',
          message:
            'required: send back the resourceVersion the application was read with (a stale one is 409)',
        },
      ]);
    await this.preview.render(app);
    return this.client.update(withServerFields(app, live), { fieldManager: FIELD_MANAGER });
  }

  /**
   * PATCH (merge patch) on the server's latest copy, validated as a whole,
   * written only if unchanged since it was read. A patch without a
   * resourceVersion is re-applied on a conflict (the controller's status
   * writes move the resourceVersion too); one with a resourceVersion is a
   * precondition, so a stale one is 409.
   */
  async patch(namespace: string, name: string, patch: unknown): Promise<KubeObject> {
    this.get(namespace, name);
    if (!isJsonObject(patch)) throw invalid([{ path: '', message: 'a merge patch must be a JSON object' }]);
    const precondition = isJsonObject(patch.metadata) && patch.metadata.resourceVersion !== undefined;
    for (let attempt = 1; ; attempt++) {
      const live = await this.client.get(namespace, name);
      const merged = mergePatch(deepCopy(live), patch) as KubeObject;
      if (!precondition)
        merged.metadata = { ...merged.metadata, resourceVersion: live.metadata?.resourceVersion };
      const app = this.preview.parse(merged, namespace);
      await this.preview.render(app);
      try {
        return await this.client.update(withServerFields(app, live), { fieldManager: FIELD_MANAGER });
      } catch (err) {
        if (precondition || !isConflict(err) || attempt >= 5) throw err;
      }
    }
  }

  async delete(namespace: string, name: string): Promise<KubeObject> {
    const live = this.get(namespace, name);
    await this.client.delete(namespace, name, {
      propagationPolicy: 'Background',
      preconditions: { uid: live.metadata?.uid },
    });
    return live;
  }

  async previewStored(namespace: string, name: string, body: unknown): Promise<Preview> {
    const source = body && isJsonObject(body) && Object.keys(body).length ? body : this.get(namespace, name);
    const app = this.preview.parse(source, namespace);
    return this.preview.render(app);
  }

  async previewNew(namespace: string, body: unknown): Promise<Preview> {
    this.requireNamespace(namespace);
    return this.preview.render(this.preview.parse(body, namespace));
  }

  /**
   * The live objects of `status.appliedResources`, read through the cache of
   * each kind. Secrets are never read (a reader of Applications is not
   * thereby a reader of Secrets): they are listed by reference only. A kind
   * the API may not read is reported on its object, not as a failed request.
   */
  async resources(namespace: string, name: string) {
    const app = this.get(namespace, name) as unknown as Application;
    const items = [];
    for (const ref of app.status?.appliedResources ?? []) {
      let object: KubeObject | undefined;
      let error: string | undefined;
      if (!(ref.apiVersion === 'v1' && ref.kind === 'Secret')) {
        try {
          const kind = await this.cluster.mapper.kindFor({ apiVersion: ref.apiVersion, kind: ref.kind });
          object = await this.cluster.manager.client.get(kind, ref.namespace, ref.name);
        } catch (err) {
          error = `cannot read it: ${(err as Error).message}`;
        }
      }
      items.push({
        ref: {
          apiVersion: ref.apiVersion,
          kind: ref.kind,
          namespace: ref.namespace,
          name: ref.name,
          component: ref.component,
          ...(ref.trait ? { trait: ref.trait } : {}),
        },
        ...(object ? { object } : {}),
        ...(error ? { error } : {}),
      });
    }
    return { items };
  }

  /** Events about the application or any object it applied, oldest first. */
  events(namespace: string, name: string) {
    const app = this.get(namespace, name) as unknown as Application;
    const about = new Set([
      `Application/${name}`,
      ...(app.status?.appliedResources ?? [])
        .filter((r) => (r.namespace ?? namespace) === namespace)
        .map((r) => `${r.kind}/${r.name}`),
    ]);
    const items = this.cluster
      .informer(EVENTS)
      .indexer.byIndex(NAMESPACE_INDEX, namespace)
      .map((e) => e as Record<string, any>)
      .filter((e) => about.has(`${e.involvedObject?.kind}/${e.involvedObject?.name}`))
      .map((e) => ({
        type: e.type,
        reason: e.reason,
        message: e.message,
        object: { kind: e.involvedObject?.kind, name: e.involvedObject?.name },
        count: e.count,
        firstTimestamp: e.firstTimestamp ?? e.eventTime ?? undefined,
        lastTimestamp: e.lastTimestamp ?? e.eventTime ?? undefined,
      }))
      .sort((a, b) => String(a.lastTimestamp ?? '').localeCompare(String(b.lastTimestamp ?? '')));
    return { items };
  }

  revisions(namespace: string, name: string) {
    const app = this.get(namespace, name) as unknown as Application;
    const current = app.status?.latestRevision?.revision;
    const items = this.revisionObjects(namespace, name)
      .map((r) => {
        const revision = Number((r.spec as { revision?: unknown })?.revision);
        return {
          name: r.metadata!.name!,
          revision,
          createdAt: r.metadata?.creationTimestamp,
          changeSummary: r.metadata?.annotations?.[CHANGE_SUMMARY_ANNOTATION],
          current: revision === current,
        };
      })
      .sort((a, b) => a.revision - b.revision);
    return { items };
  }

  /** Asks the controller to roll back (its annotation); it re-renders from that revision's snapshot. */
  async rollback(namespace: string, name: string, body: unknown): Promise<KubeObject> {
    this.get(namespace, name);
    const revision = (body as { revision?: unknown })?.revision;
    if (!Number.isInteger(revision) || (revision as number) < 1)
      throw invalid([{ path: 'revision', message: 'required: a revision number (1 or more)' }]);
    if (
      !this.revisionObjects(namespace, name).some(
        (r) => (r.spec as { revision?: unknown })?.revision === revision,
      )
    )
      throw new ApiProblem(
        404,
        `application "${name}" has no revision ${revision} (ApplicationRevision "${name}-v${revision}")`,
      );
    return this.client.patch(
      namespace,
      name,
      { metadata: { annotations: { [ROLLBACK_ANNOTATION]: String(revision) } } },
      { type: 'merge', fieldManager: FIELD_MANAGER },
    );
  }

  private revisionObjects(namespace: string, name: string): KubeObject[] {
    return this.cluster
      .informer(APPLICATION_REVISIONS)
      .indexer.byIndex(NAMESPACE_INDEX, namespace)
      .filter((r) => r.metadata?.labels?.[APP_NAME_LABEL] === name);
  }
}

/** What a client never sends but must not erase: the controller's finalizer, owner references. */
function withServerFields(app: Application, live: KubeObject): KubeObject {
  const meta = { ...app.metadata } as Record<string, unknown>;
  for (const key of ['finalizers', 'ownerReferences', 'uid'] as const)
    if (meta[key] === undefined && live.metadata?.[key] !== undefined) meta[key] = live.metadata[key];
  return { ...(app as unknown as KubeObject), metadata: meta as KubeObject['metadata'] };
}
