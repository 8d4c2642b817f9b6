import { apiVersionOf, type KubeObject } from '#kube-core';
import { KubeApiError } from './api-error.js';
import { kindId, resourcePath, type ResourceKind } from './resource-kind.js';
import type { KubeTransport, StreamEnd } from './transport.js';

export interface ObjectList<T> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

export interface ListOptions {
  /** Undefined = all namespaces (for namespaced kinds). */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
export interface WatchEvent<T> {
  type: WatchEventType;
  /** The object, or a Status for ERROR events. */
  object: T;
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  allowWatchBookmarks?: boolean;
  /** Asks the server to end the watch after this long (it then closes the stream cleanly). */
  timeoutSeconds?: number;
  /** The stream is treated as dead when nothing arrives for this long; default timeoutSeconds + 30 s. */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
}

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';
const patchContentType: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
  subresource?: 'status' | 'scale';
  timeoutMs?: number;
  signal?: AbortSignal;
}
export interface PatchOptions extends WriteOptions {
  type: PatchType;
  /** Server-side apply only: take ownership of fields other managers hold. */
  force?: boolean;
}
export interface DeleteOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * CRUD, list and watch for one resource kind. Every call is one HTTP request
 * through the transport (rate limited, time limited); failures throw
 * KubeApiError carrying the verb, the path and the server's Status.
 */
export class ResourceClient<T extends KubeObject = KubeObject> {
  constructor(
    readonly transport: KubeTransport,
    readonly kind: ResourceKind<T>,
  ) {}

  /** One page of a list. */
  list(options: ListOptions = {}): Promise<ObjectList<T>> {
    return this.transport.request<ObjectList<T>>({
      verb: 'list',
      method: 'GET',
      path: resourcePath(this.kind, options.namespace),
      query: {
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        limit: options.limit,
        continue: options.continue,
        resourceVersion: options.resourceVersion,
        resourceVersionMatch: options.resourceVersionMatch,
      },
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
  }

  /**
   * Every page of a list (limit/continue pagination), as one consistent
   * snapshot: the items and the resourceVersion to watch from.
   */
  async listAll(
    options: ListOptions & { pageSize?: number } = {},
  ): Promise<{ items: T[]; resourceVersion: string }> {
    const items: T[] = [];
    let token: string | undefined;
    let resourceVersion: string;
    do {
      const limit = options.pageSize === 0 ? undefined : (options.pageSize ?? 500);
      const page = await this.list({ ...options, limit, continue: token });
      for (const item of page.items) items.push(withKind(item, this.kind));
      token = page.metadata?.continue || undefined;
      resourceVersion = page.metadata?.resourceVersion ?? '';
    } while (token);
    return { items, resourceVersion };
  }

  /**
   * Streams watch events to `onEvent` until the server ends the watch, it goes
   * silent for `idleTimeoutMs`, the connection breaks or `signal` aborts.
   * Rejects only if the watch cannot start (e.g. 410 Gone for an old resourceVersion).
   */
  watch(options: WatchOptions, onEvent: (event: WatchEvent<T>) => void): Promise<StreamEnd> {
    const path = resourcePath(this.kind, options.namespace);
    return this.transport.stream(
      {
        verb: 'watch',
        method: 'GET',
        path,
        query: {
          watch: 1,
          resourceVersion: options.resourceVersion,
          allowWatchBookmarks: options.allowWatchBookmarks ?? true,
          timeoutSeconds: options.timeoutSeconds,
          labelSelector: options.labelSelector,
          fieldSelector: options.fieldSelector,
        },
        idleTimeoutMs: options.idleTimeoutMs ?? ((options.timeoutSeconds ?? 300) + 30) * 1000,
        signal: options.signal,
      },
      (line) => {
        let event: WatchEvent<T>;
        try {
          event = JSON.parse(line) as WatchEvent<T>;
        } catch (err) {
          throw new KubeApiError(
            0,
            'InvalidWatchEvent',
            `watch of ${kindId(this.kind)} sent a line that is not JSON (${String(err)}): ${line.slice(0, 200)}`,
            'GET',
            path,
          );
        }
        if (event.type !== 'ERROR' && event.type !== 'BOOKMARK')
          event.object = withKind(event.object, this.kind);
        onEvent(event);
      },
    );
  }

  get(
    namespace: string | undefined,
    name: string,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    return this.transport.request<T>({
      verb: 'get',
      method: 'GET',
      path: resourcePath(this.kind, namespace, name),
      ...options,
    });
  }

  create(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.transport.request<T>({
      verb: 'create',
      method: 'POST',
      path: resourcePath(this.kind, this.namespaceOf(obj)),
      query: writeQuery(options),
      body: withKind(obj, this.kind),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
  }

  /** Replaces the object; its metadata.resourceVersion makes this a compare-and-swap (409 Conflict if stale). */
  update(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.transport.request<T>({
      verb: 'update',
      method: 'PUT',
      path: resourcePath(this.kind, this.namespaceOf(obj), this.nameOf(obj), options.subresource),
      query: writeQuery(options),
      body: withKind(obj, this.kind),
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
  }

  patch(namespace: string | undefined, name: string, patch: unknown, options: PatchOptions): Promise<T> {
    if (options.type === 'apply' && !options.fieldManager) {
      throw new Error(`server-side apply of ${kindId(this.kind)} "${name}" needs a fieldManager`);
    }
    return this.transport.request<T>({
      verb: 'patch',
      method: 'PATCH',
      path: resourcePath(this.kind, namespace, name, options.subresource),
      query: { ...writeQuery(options), force: options.type === 'apply' && options.force ? true : undefined },
      body: patch,
      contentType: patchContentType[options.type],
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
  }

  /** Server-side apply of a complete desired object under `fieldManager`. */
  apply(obj: T, options: Omit<PatchOptions, 'type'> & { fieldManager: string }): Promise<T> {
    return this.patch(this.namespaceOf(obj), this.nameOf(obj), withKind(obj, this.kind), {
      ...options,
      type: 'apply',
    });
  }

  delete(namespace: string | undefined, name: string, options: DeleteOptions = {}): Promise<unknown> {
    const { timeoutMs, signal, ...body } = options;
    return this.transport.request({
      verb: 'delete',
      method: 'DELETE',
      path: resourcePath(this.kind, namespace, name),
      body: Object.keys(body).length ? { apiVersion: 'v1', kind: 'DeleteOptions', ...body } : undefined,
      timeoutMs,
      signal,
    });
  }

  private nameOf(obj: T): string {
    const name = obj.metadata?.name;
    if (!name) throw new Error(`${kindId(this.kind)}: metadata.name is required for this call`);
    return name;
  }

  private namespaceOf(obj: T): string | undefined {
    return this.kind.namespaced ? obj.metadata?.namespace : undefined;
  }
}

function writeQuery(options: WriteOptions): Record<string, string | undefined> {
  return { fieldManager: options.fieldManager, dryRun: options.dryRun ? 'All' : undefined };
}

/** Lists and watches omit apiVersion/kind on items; put them back so cached objects are self-describing. */
function withKind<T extends KubeObject>(obj: T, kind: ResourceKind): T {
  if (obj.apiVersion && obj.kind) return obj;
  return { ...obj, apiVersion: apiVersionOf(kind), kind: kind.kind };
}
