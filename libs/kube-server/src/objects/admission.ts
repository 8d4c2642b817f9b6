import type { GroupVersionKind, StoredObject } from '#kube-core';
import type { Core, WriteOptions } from '../core.js';
import {
  findBuiltinKind,
  strictDecodingMessage,
  validateBuiltin,
  validateCrd,
  validateObjectName,
  type FieldCause,
} from '../validation/index.js';
import { ApiError } from '../errors.js';
import type { ResourceInfo } from '../resources/builtin.js';
import { applyBuiltinDefaults } from './defaults.js';
import { dropEmptyMetaCollections } from './empty-meta.js';
import { badRequest, invalid, namespaceNotFound } from './meta.js';
import { foldStringData } from './secret-string-data.js';
import { unknownFieldPaths } from './unknown-fields.js';

/**
 * Which checks apply to which resource: the validation module models most built-in kinds; the
 * others (e.g. Endpoints, IngressClass) are stored after name validation only.
 */
function builtinCauses(gvk: GroupVersionKind, obj: object): FieldCause[] {
  return findBuiltinKind(gvk) ? validateBuiltin(gvk, obj) : [];
}

/** The Go package name kube's internal types live in, as its conversion errors print it. */
function internalGroup(info: ResourceInfo): string {
  return info.group ? info.group.split('.')[0] : 'core';
}

/** Checks a body is an object of the resource's kind and apiVersion; returns a deep copy (or the body itself, when `copy` is false). */
export function decodeObject(info: ResourceInfo, body: unknown, copy = true): StoredObject {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest(
      `the body of the request must be a ${info.kind} object, got ${Array.isArray(body) ? 'an array' : typeof body}`,
    );
  }
  const obj = (copy ? structuredClone(body) : body) as StoredObject;
  const expected = info.group ? `${info.group}/${info.version}` : info.version;
  if (obj.kind !== undefined && obj.kind !== info.kind) {
    const version = typeof obj.apiVersion === 'string' ? obj.apiVersion.split('/').pop() : info.version;
    throw badRequest(
      `${obj.kind} in version "${version}" cannot be handled as a ${info.kind}: converting (${version}.${obj.kind}) to (${internalGroup(info)}.${info.kind}): unknown conversion`,
    );
  }
  if (obj.apiVersion !== undefined && obj.apiVersion !== expected) {
    throw badRequest(
      `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: no kind "${info.kind}" is registered for version "${obj.apiVersion}"`,
    );
  }
  if (obj.metadata === undefined || obj.metadata === null) obj.metadata = {};
  if (typeof obj.metadata !== 'object' || Array.isArray(obj.metadata)) {
    throw badRequest(`${info.kind}.metadata must be an object`);
  }
  obj.apiVersion = expected;
  obj.kind = info.kind;
  return obj;
}

/** The URL namespace wins; a different namespace in the body is a 400, as in kube. */
export function settleNamespace(info: ResourceInfo, obj: StoredObject, namespace: string | undefined): void {
  if (!info.namespaced) {
    delete obj.metadata.namespace;
    return;
  }
  if (obj.metadata.namespace && namespace && obj.metadata.namespace !== namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  obj.metadata.namespace = namespace ?? obj.metadata.namespace;
}

/** Namespaced objects may only be created in an existing, non-terminating namespace. */
export function requireNamespace(core: Core, info: ResourceInfo, namespace: string, name: string): void {
  const ns = core.store.get('/namespaces', '', namespace);
  if (!ns) throw namespaceNotFound(namespace);
  if (ns.object.metadata.deletionTimestamp) {
    const qualified = info.group ? `${info.plural}.${info.group}` : info.plural;
    throw new ApiError(
      403,
      'Forbidden',
      `${qualified} "${name}" is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`,
      {
        name,
        ...(info.group ? { group: info.group } : {}),
        kind: info.plural,
        causes: [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${namespace} is being terminated`,
            field: 'metadata.namespace',
          },
        ],
      },
    );
  }
}

/**
 * fieldValidation: Strict refuses unknown fields (400), Warn (the default) adds
 * a warning, Ignore drops them silently — as kube-apiserver does.
 */
function checkUnknownFields(core: Core, info: ResourceInfo, obj: StoredObject, opts: WriteOptions): void {
  const mode = opts.fieldValidation ?? 'Warn';
  if (!['Strict', 'Warn', 'Ignore'].includes(mode)) {
    throw badRequest(
      `fieldValidation: Unsupported value: "${mode}": supported values: "Ignore", "Strict", "Warn"`,
    );
  }
  const unknown = unknownFieldPaths(core, info, obj);
  if (!unknown.length) return;
  // A custom resource's unknown fields go when it is pruned; a built-in's are dropped here.
  const schema = info.crd ? core.crds.schemaFor(info) : undefined;
  if (mode === 'Ignore') {
    if (!schema) for (const path of unknown) deletePath(obj, path);
    return;
  }
  if (mode === 'Strict') {
    throw badRequest(
      `${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: ${strictDecodingMessage(unknown)}`,
    );
  }
  for (const path of unknown) opts.warnings?.push(`unknown field ${JSON.stringify(path)}`);
  if (!schema) for (const path of unknown) deletePath(obj, path);
}

/**
 * Removes `spec.containers[0].bar`-style paths (unknown fields are dropped, as the decoder drops
 * them). A frozen value on the way (a stored one the write shares) is copied first, so the stored
 * object stays as it is.
 */
export function deletePath(obj: unknown, path: string): void {
  const steps = path.match(/[^.[\]]+/g) ?? [];
  let cur: unknown = obj;
  for (const step of steps.slice(0, -1)) {
    if (cur === null || typeof cur !== 'object') return;
    const parent = cur as Record<string, unknown>;
    cur = parent[step];
    if (cur !== null && typeof cur === 'object' && Object.isFrozen(cur))
      parent[step] = cur = Array.isArray(cur) ? [...(cur as unknown[])] : { ...cur };
  }
  if (cur && typeof cur === 'object') delete (cur as Record<string, unknown>)[steps[steps.length - 1]];
}

/** A kind's registry step between defaulting and validation (kube's BeginCreate/BeginUpdate hooks). */
export type Prepare = (obj: StoredObject) => void;

const isCoreSecret = (info: ResourceInfo) => !info.group && info.kind === 'Secret';

/**
 * Prunes, defaults and validates an object about to be written; throws 422 with causes. The
 * built-in kinds' schema and semantic checks are for clients: an in-process controller's write
 * (`opts.internal`, the workload simulator) is the server's own, built from objects those
 * checks passed, and skips them (no simulator write failed them in the test suites or the
 * benchmarks); names, CRD schemas and immutable fields are checked for every write.
 */
export function admit(
  core: Core,
  info: ResourceInfo,
  obj: StoredObject,
  opts?: WriteOptions,
  prepare?: Prepare,
): StoredObject {
  if (opts) checkUnknownFields(core, info, obj, opts);
  let out = obj;
  dropEmptyMetaCollections(out.metadata);
  const schema = info.crd ? core.crds.schemaFor(info) : undefined;
  if (schema) {
    out = schema.pruneAndDefault(out) as StoredObject;
  } else if (!info.crd) {
    if (isCoreSecret(info)) foldStringData(out);
    applyBuiltinDefaults(out);
  }
  prepare?.(out);
  const name = out.metadata.name ?? '';
  const causes: FieldCause[] = [...validateObjectName(info, name)];
  if (out.metadata.generateName && !out.metadata.name)
    causes.push(...validateObjectName(info, out.metadata.generateName, true));
  if (schema) causes.push(...schema.validate(out));
  else if (!info.crd && !opts?.internal)
    causes.push(...builtinCauses({ group: info.group, version: info.version, kind: info.kind }, out));
  if (info.kind === 'CustomResourceDefinition' && info.group === 'apiextensions.k8s.io')
    causes.push(...validateCrd(out));
  if (causes.length) throw invalid(info, name, causes);
  return out;
}
