import { randomUUID } from 'node:crypto';
import {
  applyPatch,
  rulesFromOpenApi,
  serverSideApply,
  updateManagedFields,
  type PatchKind,
  type RuleTable,
} from '../patch/index.js';
import { toExternal, toStorage } from '../convert/index.js';
import type { Core, WriteOptions } from '../core.js';
import { CRD_KEY, establishedStatus } from '../resources/crds.js';
import { ApiError } from '../errors.js';
import { storageKey, tracksGeneration, type ResourceInfo } from '../resources/builtin.js';
import { TooLargeToStore } from '../store/size-limit.js';
import type { StoredEntry } from '../store/types.js';
import { isJsonObject, type StoredObject } from '#kube-core';
import { validateUpdate } from '../validation/index.js';
import { ClusterIpAllocator } from '../cluster-ips/allocator.js';
import { prepareServiceIps } from '../cluster-ips/service-ips.js';
import { copySharingStored, share } from './shared-copy.js';
import { unknownFieldPaths } from './unknown-fields.js';
import { admit, decodeObject, requireNamespace, settleNamespace, type Prepare } from './admission.js';
import {
  MODIFIED_MESSAGE,
  alreadyExists,
  badRequest,
  conflict,
  generateNameSuffix,
  invalid,
  notFound,
  nowTimestamp,
  sameContent,
  specChanged,
} from './meta.js';

export interface WriteResult {
  object: StoredObject;
  created: boolean;
}

/**
 * What an update of the status subresource reads of the body: its metadata's top level (name,
 * namespace, resourceVersion, managedFields) and its status, which `copy` copies (the writer
 * changes what it stores), so that decoding copies nothing else.
 */
function statusOnly(body: unknown, copy: boolean, stored: StoredObject | undefined): unknown {
  if (!isJsonObject(body)) return body;
  const { apiVersion, kind, metadata, status } = body;
  return {
    apiVersion,
    kind,
    metadata: isJsonObject(metadata) ? { ...metadata } : metadata,
    status: copy ? share(status, stored?.status) : status,
  };
}

/** Finalizers still holding a deleting object (a namespace also waits for its spec.finalizers). */
function pendingFinalizers(obj: StoredObject): number {
  const spec =
    obj.kind === 'Namespace' ? ((obj.spec as { finalizers?: string[] } | undefined)?.finalizers ?? []) : [];
  return (obj.metadata.finalizers ?? []).length + spec.length;
}

const gvkOf = (info: ResourceInfo) => ({ group: info.group, version: info.version, kind: info.kind });
const hasStatus = (info: ResourceInfo) => info.subresources?.includes('status') ?? false;
const isCoreService = (info: ResourceInfo) => !info.group && info.kind === 'Service';

interface RegistryStep {
  prepare: Prepare;
  /** The object as decoded and defaulted, before the step changed it. */
  decoded?: StoredObject;
}

/** Create, update and patch with kube-apiserver's semantics; every method is synchronous, so read-modify-write is atomic. */
export class ObjectWriter {
  private readonly clusterIps: ClusterIpAllocator;

  constructor(private readonly core: Core) {
    this.clusterIps = new ClusterIpAllocator(core.store);
  }

  create(
    info: ResourceInfo,
    namespace: string | undefined,
    body: unknown,
    opts: WriteOptions,
    applied = false,
  ): StoredObject {
    const obj = decodeObject(info, body, !opts.ownsBody);
    settleNamespace(info, obj, namespace);
    const meta = obj.metadata;
    if (!meta.name && meta.generateName) meta.name = meta.generateName + generateNameSuffix();
    if (!meta.name) {
      throw invalid(info, '', [
        {
          reason: 'FieldValueRequired',
          message: 'Required value: name or generateName is required',
          field: 'metadata.name',
        },
      ]);
    }
    if (info.namespaced) requireNamespace(this.core, info, meta.namespace as string, meta.name);
    // apiextensions' forbidCreateAdmission: no new custom resources (create, or apply creating) while the CRD terminates.
    if (info.crd && this.core.store.get(CRD_KEY, '', info.crd)?.object.metadata.deletionTimestamp) {
      throw new ApiError(
        403,
        'Forbidden',
        `${info.plural}.${info.group} "${meta.name}" is forbidden: create not allowed while custom resource definition is terminating`,
        { name: meta.name, group: info.group, kind: info.plural },
      );
    }
    for (const key of ['resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds'] as const)
      delete meta[key];
    meta.uid = randomUUID();
    meta.creationTimestamp = nowTimestamp();
    if (tracksGeneration(info)) meta.generation = 1;
    else if (typeof meta.generation !== 'number') delete meta.generation;
    if (hasStatus(info) && info.kind !== 'Namespace') delete obj.status;
    const step = this.registryStep(info, undefined, opts);
    const admitted = admit(this.core, info, obj, applied ? undefined : opts, step?.prepare);
    if (this.core.store.get(storageKey(info), meta.namespace ?? '', meta.name))
      throw alreadyExists(info, meta.name);
    if (!applied) {
      admitted.metadata.managedFields = this.managedFields(info, undefined, step?.decoded ?? admitted, opts);
    }
    return this.commit(info, admitted, opts, applied);
  }

  update(
    info: ResourceInfo,
    namespace: string | undefined,
    name: string,
    body: unknown,
    opts: WriteOptions,
    subresource?: string,
  ): WriteResult {
    const current = this.core.store.get(storageKey(info), namespace ?? '', name);
    const live = current && !opts.ownsBody ? toExternal(info, current.object) : undefined;
    const obj =
      subresource === 'status'
        ? decodeObject(info, statusOnly(body, !opts.ownsBody, live), false)
        : // The registry step of a Service changes its spec in place: its body is copied whole.
          live && !isCoreService(info)
          ? decodeObject(info, copySharingStored(body, live), false)
          : decodeObject(info, body, !opts.ownsBody);
    if (obj.metadata.name && obj.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${obj.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    obj.metadata.name = name;
    settleNamespace(info, obj, namespace);
    if (!current) throw notFound(info, name);
    return { object: this.commitUpdate(info, current, obj, opts, subresource, false), created: false };
  }

  patch(
    info: ResourceInfo,
    namespace: string | undefined,
    name: string,
    kind: PatchKind,
    patchBody: unknown,
    opts: WriteOptions,
    subresource?: string,
  ): WriteResult {
    const current = this.core.store.get(storageKey(info), namespace ?? '', name);
    const now = nowTimestamp();
    if (kind === 'apply') {
      const body = patchBody as { apiVersion?: unknown; kind?: unknown } | null;
      const expected = info.group ? `${info.group}/${info.version}` : info.version;
      if (body && typeof body === 'object' && (body.kind !== info.kind || body.apiVersion !== expected)) {
        const [group, version] = String(body.apiVersion ?? '').includes('/')
          ? String(body.apiVersion).split('/')
          : ['', String(body.apiVersion ?? '')];
        throw badRequest(`invalid object type: ${group}/${version}, Kind=${String(body.kind ?? '')}`);
      }
      const applied = decodeObject(info, patchBody, !opts.ownsBody);
      if (applied.metadata.name && applied.metadata.name !== name) {
        throw badRequest(
          `the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`,
        );
      }
      applied.metadata.name = name;
      // The namespace is settled on the result, as kube checks it after the patch: SMD's errors
      // name the applied object as sent (`/name` when it names no namespace).
      const live = current ? toExternal(info, current.object) : undefined;
      if (!live && subresource) throw notFound(info, name);
      const merged = serverSideApply({
        live,
        applied,
        manager: opts.manager,
        force: opts.force ?? false,
        gvk: gvkOf(info),
        now,
        subresource,
        undeclared: (obj) => unknownFieldPaths(this.core, info, obj),
        rules: this.customRules(info),
      }) as StoredObject;
      settleNamespace(info, merged, namespace);
      if (!current)
        return {
          object: this.create(info, namespace, merged, { ...opts, ownsBody: false }, true),
          created: true,
        };
      return { object: this.commitUpdate(info, current, merged, opts, subresource, true), created: false };
    }
    if (!current) throw notFound(info, name);
    const live = toExternal(info, current.object);
    const patched = decodeObject(info, applyPatch(kind, live, patchBody, gvkOf(info)));
    if (patched.metadata.name !== name)
      throw badRequest(`the name of the object cannot be changed by a patch`);
    return { object: this.commitUpdate(info, current, patched, opts, subresource, false), created: false };
  }

  /** The shared tail of update and patch: preconditions, subresource rules, admission, generation, write. */
  private commitUpdate(
    info: ResourceInfo,
    current: StoredEntry,
    incoming: StoredObject,
    opts: WriteOptions,
    subresource: string | undefined,
    applied: boolean,
  ): StoredObject {
    const live = toExternal(info, current.object);
    const rv = incoming.metadata.resourceVersion;
    if (rv && rv !== String(current.rv)) throw conflict(info, current.name, MODIFIED_MESSAGE);
    let next: StoredObject;
    // What the request cannot change comes from the stored object, shared rather than copied: it
    // is frozen, and admission leaves frozen (stored) values as they are, as kube's strategies
    // reset them to the stored ones after defaulting. Only the metadata is the write's own.
    if (subresource === 'status') {
      next = { ...live, metadata: { ...live.metadata }, status: incoming.status };
      if (applied || incoming.metadata.managedFields)
        next.metadata.managedFields = incoming.metadata.managedFields;
    } else {
      next = incoming;
      if (hasStatus(info) && info.kind !== 'Namespace') {
        if (live.status === undefined) delete next.status;
        else next.status = live.status;
      }
    }
    this.keepImmutableMeta(info, live, next);
    const step = subresource === 'status' ? undefined : this.registryStep(info, live, opts);
    const admitted = admit(this.core, info, next, applied ? undefined : opts, step?.prepare);
    if (subresource !== 'status' && !info.crd) {
      const causes = validateUpdate(gvkOf(info), admitted, live, { bindPods: opts.internal });
      if (causes.length) throw invalid(info, current.name, causes);
    }
    // rest.BeforeUpdate keeps the stored generation; the kind's strategy bumps it on a spec change.
    if (live.metadata.generation === undefined) delete admitted.metadata.generation;
    else
      admitted.metadata.generation =
        live.metadata.generation + (tracksGeneration(info) && specChanged(live, admitted) ? 1 : 0);
    if (!applied) {
      const written = step?.decoded ?? admitted;
      admitted.metadata.managedFields = this.managedFields(info, live, written, opts, subresource);
    }
    if (sameContent(admitted, live)) return live;
    return this.commit(info, admitted, opts, applied);
  }

  /**
   * The kind's registry step (Services get their cluster IPs). kube's field manager runs in
   * the handler, ahead of the registry, so what the step fills in is nobody's field: the
   * step keeps the object as it was before, for managedFields.
   */
  private registryStep(
    info: ResourceInfo,
    before: StoredObject | undefined,
    opts: WriteOptions,
  ): RegistryStep | undefined {
    if (!isCoreService(info)) return undefined;
    const step: RegistryStep = {
      prepare: (obj) => {
        step.decoded = structuredClone(obj);
        prepareServiceIps(obj, { info, allocator: this.clusterIps, before, dryRun: opts.dryRun ?? false });
      },
    };
    return step;
  }

  private keepImmutableMeta(info: ResourceInfo, live: StoredObject, next: StoredObject): void {
    const from = live.metadata;
    const meta = next.metadata;
    for (const key of [
      'uid',
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'namespace',
      'name',
    ] as const) {
      if (from[key] === undefined) delete meta[key];
      else (meta as Record<string, unknown>)[key] = from[key];
    }
    if (from.deletionTimestamp) {
      const added = (meta.finalizers ?? []).filter((f) => !(from.finalizers ?? []).includes(f));
      if (added.length) {
        const list = added.map((f) => `"${f}"`).join(', ');
        const message = `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{${list}}`;
        throw invalid(info, meta.name as string, [
          { reason: 'FieldValueForbidden', message, field: 'metadata.finalizers' },
        ]);
      }
    }
  }

  private managedFields(
    info: ResourceInfo,
    before: StoredObject | undefined,
    after: StoredObject,
    opts: WriteOptions,
    subresource?: string,
  ) {
    return updateManagedFields({
      before,
      after,
      manager: opts.manager,
      operation: 'Update',
      gvk: gvkOf(info),
      now: nowTimestamp(),
      subresource,
      rules: this.customRules(info),
    }) as unknown[];
  }

  /** A custom resource's list and map rules for managedFields, from its CRD's schema. */
  private customRules(info: ResourceInfo): RuleTable | undefined {
    const schema = info.crd ? this.core.crds.openApiSchema(info) : undefined;
    return schema ? rulesFromOpenApi(schema) : undefined;
  }

  /** Stores (or, for a deleting object whose last finalizer went, removes) the object; dryRun stores nothing. */
  private commit(info: ResourceInfo, obj: StoredObject, opts: WriteOptions, applied: boolean): StoredObject {
    if (obj.metadata.managedFields && !obj.metadata.managedFields.length) delete obj.metadata.managedFields;
    if (storageKey(info) === CRD_KEY) {
      const terminating = (
        (obj.status as { conditions?: { type: string }[] } | undefined)?.conditions ?? []
      ).find((c) => c.type === 'Terminating');
      const status = establishedStatus(obj, nowTimestamp());
      if (terminating) (status.conditions as unknown[]).push(terminating);
      obj.status = status;
    }
    const stored = toStorage(info, obj, this.core.crds.storageVersion(info));
    if (opts.dryRun) return toExternal(info, stored);
    const key = storageKey(info);
    if (stored.metadata.deletionTimestamp && !pendingFinalizers(stored)) {
      const removed = this.core.store.remove(
        key,
        stored.metadata.namespace ?? '',
        stored.metadata.name as string,
        stored,
      );
      if (!removed)
        throw new ApiError(
          500,
          'InternalError',
          `object ${stored.metadata.name} vanished while being finalized`,
        );
      return toExternal(info, removed);
    }
    return toExternal(info, this.put(key, stored, applied));
  }

  /**
   * kube-apiserver tries a write too big for etcd once more without its managedFields (they can
   * be large), except an apply's, whose managedFields are what it is about.
   */
  private put(key: string, stored: StoredObject, applied: boolean): StoredObject {
    try {
      return this.core.store.put(key, stored);
    } catch (err) {
      if (!(err instanceof TooLargeToStore) || applied || !stored.metadata.managedFields) throw err;
      const { managedFields: _dropped, ...metadata } = stored.metadata;
      return this.core.store.put(key, { ...stored, metadata });
    }
  }
}
