import type { PatchKind } from '../patch/index.js';
import type { Logger } from '../core.js';
import type { DeleteOptions } from '../objects/deleter.js';
import type { ListQuery } from '../objects/reader.js';
import type { ObjectService } from '../objects/service.js';
import type { ChangeEvent } from '../store/types.js';
import { type GroupVersionResource, type StoredObject } from '#kube-core';
import { StoreInformers } from './store-informers.js';
import { wholeObject } from './store-source.js';

/** One committed change, as an in-process controller sees it (objects in their stored form). */
export interface ControllerEvent {
  type: ChangeEvent['type'];
  /** Storage key, "<group>/<plural>" ("apps/deployments", "/pods"). */
  resource: string;
  namespace: string;
  name: string;
  resourceVersion: string;
  object: StoredObject;
}

/** Reads and writes with the server's own semantics (admission, resourceVersions, GC, watches). */
export interface InProcessApi {
  get(gvr: GroupVersionResource, namespace: string | undefined, name: string): StoredObject | undefined;
  list(gvr: GroupVersionResource, namespace?: string, query?: ListQuery): StoredObject[];
  create(gvr: GroupVersionResource, namespace: string | undefined, obj: object): StoredObject;
  update(
    gvr: GroupVersionResource,
    namespace: string | undefined,
    name: string,
    obj: object,
    subresource?: 'status',
  ): StoredObject;
  patch(
    gvr: GroupVersionResource,
    namespace: string | undefined,
    name: string,
    kind: PatchKind,
    patch: unknown,
    subresource?: 'status',
  ): StoredObject;
  delete(gvr: GroupVersionResource, namespace: string | undefined, name: string, opts?: DeleteOptions): void;
}

export interface ControllerContext {
  api: InProcessApi;
  /**
   * Runtime informers over the store holding whole objects (copies), one per
   * storage key the controller `ensure`s; it starts and stops them.
   */
  informers: StoreInformers;
  log: Logger;
}

/** Something that runs inside the server (the workload simulator): started after the store, stopped before it closes. */
export interface ServerController {
  name: string;
  start(ctx: ControllerContext): void | Promise<void>;
  stop?(): void | Promise<void>;
}

export function inProcessApi(objects: ObjectService, manager: string): InProcessApi {
  const info = (gvr: GroupVersionResource) => objects.info(gvr.group, gvr.version, gvr.resource);
  const opts = { manager, internal: true };
  return {
    get: (gvr, ns, name) => {
      const entry = objects.core.store.get(`${gvr.group}/${gvr.resource}`, ns ?? '', name);
      return entry ? objects.get(info(gvr), ns, name) : undefined;
    },
    list: (gvr, ns, query) => objects.list(info(gvr), ns, query).items,
    create: (gvr, ns, obj) => objects.create(info(gvr), ns, obj, opts),
    update: (gvr, ns, name, obj, sub) => objects.update(info(gvr), ns, name, obj, opts, sub).object,
    patch: (gvr, ns, name, kind, patch, sub) =>
      objects.patch(info(gvr), ns, name, kind, patch, { ...opts, force: true }, sub).object,
    delete: (gvr, ns, name, deleteOpts) => {
      objects.delete(info(gvr), ns, name, deleteOpts);
    },
  };
}

export function controllerContext(
  objects: ObjectService,
  controller: ServerController,
  log: Logger,
): ControllerContext {
  const own: Logger = (entry) => log({ controller: controller.name, ...entry });
  return {
    api: inProcessApi(objects, controller.name),
    informers: new StoreInformers(objects.core.store, own, wholeObject),
    log: own,
  };
}
