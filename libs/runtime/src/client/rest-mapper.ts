import { parseApiVersion, type KubeObject } from '#kube-core';
import { isNotFound } from './api-error.js';
import { isResourceKind, type KindRef, type ResourceKind } from './resource-kind.js';
import type { KubeTransport } from './transport.js';

/** A kind the server does not serve (yet): a CRD not installed, a typo in apiVersion. */
export class NoKindMatchError extends Error {
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(`the server does not serve kind "${kind}" in "${apiVersion}" (is its CRD installed?)`);
    this.name = 'NoKindMatchError';
  }
}

interface ApiResourceList {
  resources?: { name: string; kind: string; namespaced: boolean }[];
}

/**
 * Discovery-backed mapping from apiVersion + kind to the REST resource
 * (client-go's RESTMapper): rendered objects carry only apiVersion and kind,
 * the client needs plural and scope. One discovery request per group
 * version, cached; a miss asks again (at most every `refreshAfterMs`), so
 * kinds of CRDs installed after start are found.
 */
export class RestMapper {
  private readonly groupVersions = new Map<string, { fetchedAt: number; kinds: Map<string, ResourceKind> }>();
  private readonly pending = new Map<string, Promise<Map<string, ResourceKind>>>();

  constructor(
    private readonly transport: KubeTransport,
    private readonly options: { refreshAfterMs?: number; now?: () => number } = {},
  ) {}

  /** The resource of an object (or of `{apiVersion, kind}`); throws NoKindMatchError when not served. */
  async kindFor(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): Promise<ResourceKind> {
    const { apiVersion, kind } = obj;
    if (!apiVersion || !kind) throw new Error('cannot map an object without apiVersion and kind');
    const cached = this.groupVersions.get(apiVersion);
    const hit = cached?.kinds.get(kind);
    if (hit) return hit;
    const now = (this.options.now ?? Date.now)();
    if (cached && now - cached.fetchedAt < (this.options.refreshAfterMs ?? 1000))
      throw new NoKindMatchError(apiVersion, kind);
    const kinds = await this.discover(apiVersion);
    const found = kinds.get(kind);
    if (!found) throw new NoKindMatchError(apiVersion, kind);
    return found;
  }

  /** A ResourceKind as it is; an apiVersion + kind (or an object) mapped through discovery. */
  resolve<T extends KubeObject = KubeObject>(ref: KindRef<T>): Promise<ResourceKind<T>> {
    // A kind mapped from apiVersion + kind holds whatever the caller's T says: discovery cannot tell.
    return isResourceKind(ref) ? Promise.resolve(ref) : (this.kindFor(ref) as Promise<ResourceKind<T>>);
  }

  /** Forgets what discovery said, e.g. after CRDs changed. */
  reset(): void {
    this.groupVersions.clear();
  }

  private discover(apiVersion: string): Promise<Map<string, ResourceKind>> {
    let p = this.pending.get(apiVersion);
    if (!p) {
      p = this.fetch(apiVersion).finally(() => this.pending.delete(apiVersion));
      this.pending.set(apiVersion, p);
    }
    return p;
  }

  private async fetch(apiVersion: string): Promise<Map<string, ResourceKind>> {
    const { group, version } = parseApiVersion(apiVersion);
    const path = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const kinds = new Map<string, ResourceKind>();
    try {
      const list = await this.transport.request<ApiResourceList>({ verb: 'get', method: 'GET', path });
      for (const r of list.resources ?? []) {
        if (r.name.includes('/')) continue; // subresources such as deployments/scale
        kinds.set(r.kind, { group, version, plural: r.name, kind: r.kind, namespaced: r.namespaced });
      }
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    this.groupVersions.set(apiVersion, { fetchedAt: (this.options.now ?? Date.now)(), kinds });
    return kinds;
  }
}
