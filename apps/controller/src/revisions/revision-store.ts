import { API_VERSION, APPLICATION_REVISIONS, type ApplicationRevision, LABELS, revisionName } from '#api';
import { isAlreadyExists, isNotFound, type Client, type IndexFunc } from '#runtime';
import { ownerReferenceTo, type KubeObject } from '#kube-core';

/** ApplicationRevisions by the application they are labelled with (`namespace/name`). */
export const REVISION_APP_INDEX = 'revisionApp';
export const revisionAppIndexFunc: IndexFunc<KubeObject> = (r) => {
  const app = r.metadata?.labels?.[LABELS.appName];
  return app ? [`${r.metadata?.namespace ?? ''}/${app}`] : [];
};

/**
 * An application's ApplicationRevisions: read from the informer cache
 * (through REVISION_APP_INDEX, which the cache's informer must have),
 * written to the server. Revisions left by an earlier Application of the
 * same name (another UID, not yet garbage-collected) are not its own.
 */
export class RevisionStore {
  constructor(private readonly client: Client) {}

  /** Its own revisions, oldest first. */
  async list(app: KubeObject): Promise<ApplicationRevision[]> {
    const all = await this.named(app);
    return all
      .filter((r) => r.metadata.ownerReferences?.some((o) => o.uid === app.metadata?.uid))
      .sort((a, b) => a.spec.revision - b.spec.revision);
  }

  /** Every revision number in use under the app's name, its own or left over. */
  async highestNumber(app: KubeObject): Promise<number> {
    const all = await this.named(app);
    return Math.max(0, ...all.map((r) => r.spec.revision));
  }

  /**
   * Creates revision `spec.revision`. Already there with the same render hash
   * (written by a reconcile that crashed before its status): done. Left by an
   * earlier Application of the same name: replaced. Anything else throws, and
   * the reconcile is retried with a fresh cache.
   */
  async create(
    app: KubeObject,
    spec: ApplicationRevision['spec'],
    annotations: Record<string, string>,
  ): Promise<ApplicationRevision> {
    const name = revisionName(app.metadata!.name!, spec.revision);
    const object: ApplicationRevision = {
      apiVersion: API_VERSION,
      kind: 'ApplicationRevision',
      metadata: {
        name,
        namespace: app.metadata!.namespace,
        labels: { [LABELS.appName]: app.metadata!.name! },
        annotations,
        ownerReferences: [{ ...ownerReferenceTo(app, { controller: true, blockOwnerDeletion: false }) }],
      },
      spec,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.client.create(APPLICATION_REVISIONS, object);
      } catch (err) {
        if (!isAlreadyExists(err) || attempt > 0) throw err;
      }
      const there = await this.client.resource(APPLICATION_REVISIONS).get(app.metadata!.namespace, name);
      const own = there.metadata.ownerReferences?.some((o) => o.uid === app.metadata?.uid);
      if (own && there.spec.renderHash === spec.renderHash) return there;
      if (own) throw new Error(`revision ${name} exists with other inputs; the cache is behind, retrying`);
      await this.delete(app, name);
    }
  }

  /** The revisions labelled with the app's name, its own or left over. */
  private named(app: KubeObject): Promise<ApplicationRevision[]> {
    const value = `${app.metadata!.namespace}/${app.metadata!.name}`;
    return this.client.list(APPLICATION_REVISIONS, {
      index: { name: REVISION_APP_INDEX, value },
    });
  }

  async delete(app: KubeObject, name: string): Promise<void> {
    try {
      await this.client.delete(APPLICATION_REVISIONS, app.metadata!.namespace, name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
