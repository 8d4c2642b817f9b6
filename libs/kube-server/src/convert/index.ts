import { apiVersionOf, type StoredObject } from '#kube-core';
import { type ResourceInfo } from '../resources/builtin.js';
import { coreToEventsV1, eventsV1ToCore } from './events.js';
import { hpaV1ToV2, hpaV2ToV1 } from './hpa.js';

/** Converts an object as a client sent it for `info` into the stored form (shared stores, CRD storage versions). */
export function toStorage(info: ResourceInfo, obj: StoredObject, storageVersion?: string): StoredObject {
  if (info.group === 'autoscaling' && info.version === 'v1') return hpaV1ToV2(obj);
  if (info.group === 'events.k8s.io') return eventsV1ToCore(obj);
  const version = storageVersion ?? info.version;
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return {
    apiVersion: apiVersionOf({ group: info.group, version }),
    kind: info.kind,
    ...rest,
  } as StoredObject;
}

/**
 * Converts a stored object into the form served for `info`: a stored (frozen) object already in
 * that form is returned as it is, anything else as a fresh top-level object (nested values shared).
 */
export function toExternal(info: ResourceInfo, obj: StoredObject): StoredObject {
  if (info.group === 'autoscaling' && info.version === 'v1') return { ...hpaV2ToV1(obj), kind: info.kind };
  if (info.group === 'events.k8s.io') return coreToEventsV1(obj);
  const apiVersion = apiVersionOf(info);
  if (obj.apiVersion === apiVersion && obj.kind === info.kind && Object.isFrozen(obj) && typeMetaFirst(obj))
    return obj;
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return { apiVersion, kind: info.kind, ...rest } as StoredObject;
}

/** Whether apiVersion and kind are the object's first keys, where the served form has them. */
function typeMetaFirst(obj: StoredObject): boolean {
  let i = 0;
  for (const key in obj) {
    if (key !== (i === 0 ? 'apiVersion' : 'kind')) return false;
    if (++i === 2) return true;
  }
  return false;
}
