import { APPLICATIONS, COMPONENTS, FIELD_MANAGERS, TRAITS } from '#api';
import { deepCopy, isJsonObject, mergePatch, type KubeObject } from '#kube-core';
import { isConflict, NAMESPACE_INDEX, NAMESPACES, type ResourceKind } from '#runtime';
import { ApiProblem, invalid } from '../http/problem.js';
import type { ClusterService } from '../kube/cluster.service.js';
import type { PreviewService, StoredKind } from './preview.service.js';

const KINDS: Record<StoredKind, ResourceKind> = {
  Application: APPLICATIONS,
  Component: COMPONENTS,
  Trait: TRAITS,
};

/**
 * CRUD of one OAM kind (Applications, standalone Components, Traits): reads
 * from the informer cache, writes to the API server as field manager
 * `oam-api`, every write validated (zod) and rendered where it goes first,
 * so a request that fails changes nothing.
 */
export class ObjectStore {
  private readonly resource: ResourceKind;
  private readonly noun: string;

  constructor(
    private readonly cluster: ClusterService,
    private readonly preview: PreviewService,
    readonly kind: StoredKind,
  ) {
    this.resource = KINDS[kind];
    this.noun = kind.toLowerCase();
  }

  private get client() {
    return this.cluster.manager.client.resource(this.resource);
  }

  /** 404 for a namespace that does not exist (reads would otherwise look merely empty). */
  requireNamespace(namespace: string): void {
    if (!this.cluster.informer(NAMESPACES).indexer.get(undefined, namespace))
      throw new ApiProblem(404, `namespace "${namespace}" not found`);
  }

  list(namespace: string): KubeObject[] {
    this.requireNamespace(namespace);
    return this.cluster
      .informer(this.resource)
      .indexer.byIndex(NAMESPACE_INDEX, namespace)
      .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!));
  }

  get(namespace: string, name: string): KubeObject {
    this.requireNamespace(namespace);
    const obj = this.cluster.informer(this.resource).indexer.get(namespace, name);
    if (!obj) throw new ApiProblem(404, `${this.noun} "${name}" not found in namespace "${namespace}"`);
    return obj;
  }

  async create(namespace: string, body: unknown): Promise<KubeObject> {
    this.requireNamespace(namespace);
    const input = this.preview.parseAs(this.kind, body, namespace);
    await this.preview.check(input);
    return this.client.create(input.object, { fieldManager: FIELD_MANAGERS.api });
  }

  /** PUT: the body replaces the object; its resourceVersion must be the live one (409 when stale). */
  async replace(namespace: string, name: string, body: unknown): Promise<KubeObject> {
    const live = this.get(namespace, name);
    const input = this.preview.parseAs(this.kind, body, namespace);
    const meta = input.object.metadata;
    if (meta.name !== name)
      throw invalid([{ path: 'metadata.name', message: `is "${meta.name}", but the URL says "${name}"` }]);
    if (!meta.resourceVersion)
      throw invalid([
        {
          path: 'metadata.resourceVersion',
          message: `required: send back the resourceVersion the ${this.noun} was read with (a stale one is 409)`,
        },
      ]);
    await this.preview.check(input);
    return this.client.update(withServerFields(input.object, live), {
      fieldManager: FIELD_MANAGERS.api,
    });
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
      const input = this.preview.parseAs(this.kind, merged, namespace);
      await this.preview.check(input);
      try {
        return await this.client.update(withServerFields(input.object, live), {
          fieldManager: FIELD_MANAGERS.api,
        });
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

  /** A merge patch of metadata only (the rollback annotation), as `oam-api`. */
  annotate(namespace: string, name: string, annotations: Record<string, string>): Promise<KubeObject> {
    return this.client.patch(
      namespace,
      name,
      { metadata: { annotations } },
      { type: 'merge', fieldManager: FIELD_MANAGERS.api },
    );
  }
}

/** What a client never sends but must not erase: the controller's finalizer, owner references. */
function withServerFields(obj: KubeObject, live: KubeObject): KubeObject {
  const meta = { ...obj.metadata } as Record<string, unknown>;
  for (const key of ['finalizers', 'ownerReferences', 'uid'] as const)
    if (meta[key] === undefined && live.metadata?.[key] !== undefined) meta[key] = live.metadata[key];
  return { ...obj, metadata: meta as KubeObject['metadata'] };
}
