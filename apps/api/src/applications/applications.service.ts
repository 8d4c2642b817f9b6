import { Injectable } from '@nestjs/common';
import { APPLICATION_REVISIONS, LABELS, REVISION_ANNOTATIONS, type Application } from '#api';
import { isJsonObject, type KubeObject } from '#kube-core';
import { EVENTS, NAMESPACE_INDEX } from '#runtime';
import { ApiProblem, invalid } from '../http/problem.js';
import { ClusterService } from '../kube/cluster.service.js';
import type { ApplicationView } from './application.dto.js';
import { applicationView } from './application-view.js';
import { PreviewService, type Preview } from './preview.service.js';
import { ApplicationStore } from './stores.js';

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
    /** The Applications' CRUD; the routes below read through it too. */
    private readonly store: ApplicationStore,
  ) {}

  requireNamespace(namespace: string): void {
    this.store.requireNamespace(namespace);
  }

  list(namespace: string): ApplicationView[] {
    return this.store.list(namespace).map(applicationView);
  }

  get(namespace: string, name: string): KubeObject {
    return this.store.get(namespace, name);
  }

  /** `signal`: the request's; the evaluations stop when it fires (the answer was sent, or no one waits). */
  async previewStored(
    namespace: string,
    name: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<Preview> {
    const source = body && isJsonObject(body) && Object.keys(body).length ? body : this.get(namespace, name);
    const app = this.preview.parse(source, namespace);
    return this.preview.render(app, signal);
  }

  async previewNew(namespace: string, body: unknown, signal?: AbortSignal): Promise<Preview> {
    this.requireNamespace(namespace);
    return this.preview.render(this.preview.parse(body, namespace), signal);
  }

  /**
   * The live objects of `status.appliedResources`, read through the cache of
   * each kind. Secrets are never read (a reader of Applications is not
   * thereby a reader of Secrets): they are listed by reference only. A kind
   * the API may not read is reported on its object, not as a failed request.
   */
  async resources(namespace: string, name: string) {
    const app = this.get(namespace, name) as Application;
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
    const app = this.get(namespace, name) as Application;
    const about = new Set([
      `Application/${name}`,
      ...(app.status?.appliedResources ?? [])
        .filter((r) => (r.namespace ?? namespace) === namespace)
        .map((r) => `${r.kind}/${r.name}`),
    ]);
    const items = this.cluster
      .informer(EVENTS)
      .indexer.byIndex(NAMESPACE_INDEX, namespace)
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
    const app = this.get(namespace, name) as Application;
    const current = app.status?.latestRevision?.revision;
    const items = this.revisionObjects(namespace, name)
      .map((r) => {
        const revision = Number((r.spec as { revision?: unknown })?.revision);
        return {
          name: r.metadata!.name!,
          revision,
          createdAt: r.metadata?.creationTimestamp,
          changeSummary: r.metadata?.annotations?.[REVISION_ANNOTATIONS.changeSummary],
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
    return this.store.annotate(namespace, name, { [REVISION_ANNOTATIONS.rollbackTo]: String(revision) });
  }

  private revisionObjects(namespace: string, name: string): KubeObject[] {
    return this.cluster
      .informer(APPLICATION_REVISIONS)
      .indexer.byIndex(NAMESPACE_INDEX, namespace)
      .filter((r) => r.metadata?.labels?.[LABELS.appName] === name);
  }
}
