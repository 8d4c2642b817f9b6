import { apiVersionOf, type StoredObject } from '#kube-core';
import { type ResourceInfo } from '../resources/builtin.js';
import { coreToEventsV1, eventsV1ToCore } from './events.js';
import { hpaV1ToV2, hpaV2ToV1 } from './hpa.js';

/** Converts an object as a client sent it for `info` into the stored form (shared stores, CRD storage versions). */
export function toStorage(info: ResourceInfo, obj: StoredObject, storageVersion?: string): StoredObject {
  if (info.group === 'autoscaling' && info.version === 'v1') return hpaV1ToV2(obj);
  if (info.group === 'events.k8s.io') return eventsV1ToCore(obj);
  const version = storageVersion ?? info.version;
  return { ...obj, apiVersion: apiVersionOf({ group: info.group, version }), kind: info.kind };
}

/** Converts a stored object into the form served for `info` (a fresh top-level object; nested values are shared). */
export function toExternal(info: ResourceInfo, obj: StoredObject): StoredObject {
  if (info.group === 'autoscaling' && info.version === 'v1') return { ...hpaV2ToV1(obj), kind: info.kind };
  if (info.group === 'events.k8s.io') return coreToEventsV1(obj);
  const { apiVersion: _a, kind: _k, ...rest } = obj;
  return { apiVersion: apiVersionOf(info), kind: info.kind, ...rest } as StoredObject;
}
