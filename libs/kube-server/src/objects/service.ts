import type { PatchKind } from '../patch/index.js';
import { toExternal } from '../convert/index.js';
import type { Core, WriteOptions } from '../core.js';
import { ApiError } from '../errors.js';
import type { GcActions, ObjectRef } from '../controllers/gc.js';
import { ServerControllers } from '../controllers/server-controllers.js';
import type { ResourceInfo } from '../resources/builtin.js';
import { type StoredObject } from '#kube-core';
import { ObjectDeleter, type DeleteOptions, type DeleteResult } from './deleter.js';
import { ObjectReader, type ListQuery, type ListResult } from './reader.js';
import { ObjectWriter, type WriteResult } from './writer.js';

const SYSTEM: WriteOptions = { manager: 'kube-controller-manager' };

/** Every verb on objects, with the server's semantics; used by the HTTP handlers and by in-process controllers. */
export class ObjectService {
  readonly reader: ObjectReader;
  readonly writer: ObjectWriter;
  readonly deleter: ObjectDeleter;
  /** The garbage collector, the namespace controller and the CRD clean-up, running from construction. */
  readonly controllers: ServerControllers;

  constructor(readonly core: Core) {
    this.reader = new ObjectReader(core);
    this.writer = new ObjectWriter(core);
    this.controllers = new ServerControllers(core, this.gcActions());
    this.deleter = new ObjectDeleter(core, this.controllers.gc);
    this.controllers.start();
    this.controllers.namespaces.ensureSystemNamespaces((name) =>
      this.writer.create(
        this.info('', 'v1', 'namespaces'),
        undefined,
        { metadata: { name } },
        { manager: 'kube-apiserver' },
      ),
    );
  }

  info(group: string, version: string, plural: string): ResourceInfo {
    const info = this.core.registry.find(group, version, plural);
    if (!info)
      throw new ApiError(
        404,
        'NotFound',
        `the server could not find the requested resource (${group}/${version} ${plural})`,
      );
    return info;
  }

  get(info: ResourceInfo, namespace: string | undefined, name: string): StoredObject {
    return this.reader.get(info, namespace, name);
  }

  list(info: ResourceInfo, namespace: string | undefined, query: ListQuery = {}): ListResult {
    return this.reader.list(info, namespace, query);
  }

  create(info: ResourceInfo, namespace: string | undefined, body: unknown, opts: WriteOptions): StoredObject {
    return this.writer.create(info, namespace, body, opts);
  }

  update(
    info: ResourceInfo,
    namespace: string | undefined,
    name: string,
    body: unknown,
    opts: WriteOptions,
    subresource?: string,
  ): WriteResult {
    return this.writer.update(info, namespace, name, body, opts, subresource);
  }

  patch(
    info: ResourceInfo,
    namespace: string | undefined,
    name: string,
    kind: PatchKind,
    body: unknown,
    opts: WriteOptions,
    subresource?: string,
  ): WriteResult {
    return this.writer.patch(info, namespace, name, kind, body, opts, subresource);
  }

  delete(
    info: ResourceInfo,
    namespace: string | undefined,
    name: string,
    opts?: DeleteOptions,
  ): DeleteResult {
    return this.deleter.delete(info, namespace, name, opts);
  }

  /** deletecollection: every object the selectors match, each with delete's semantics. */
  deleteCollection(
    info: ResourceInfo,
    namespace: string | undefined,
    query: ListQuery,
    opts: DeleteOptions,
  ): ListResult {
    const listed = this.reader.list(info, namespace, {
      labelSelector: query.labelSelector,
      fieldSelector: query.fieldSelector,
    });
    const items = listed.items.map(
      (obj) => this.deleter.delete(info, obj.metadata.namespace, obj.metadata.name as string, opts).object,
    );
    return { items, resourceVersion: String(this.core.store.currentRv()) };
  }

  private gcActions(): GcActions {
    const infoOf = (ref: ObjectRef) => {
      const info = this.core.registry.byStorageKey(ref.resource);
      if (!info) throw new Error(`no served resource stores ${ref.resource}`);
      return info;
    };
    return {
      delete: (ref, policy) => {
        const info = infoOf(ref);
        if (this.core.store.get(ref.resource, ref.namespace, ref.name)) {
          this.deleter.delete(info, ref.namespace || undefined, ref.name, { propagationPolicy: policy });
        }
      },
      updateMeta: (ref, mutate) => {
        const info = infoOf(ref);
        const entry = this.core.store.get(ref.resource, ref.namespace, ref.name);
        if (!entry) return;
        const obj = structuredClone(toExternal(info, entry.object));
        mutate(obj);
        this.writer.update(info, ref.namespace || undefined, ref.name, obj, SYSTEM);
      },
    };
  }
}
