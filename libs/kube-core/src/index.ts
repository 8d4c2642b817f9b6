/**
 * Kubernetes primitives written once, shared by every other lib: object and
 * meta types, GroupVersionKind/Resource, keys, label and field selectors,
 * owner references and finalizers, stable JSON and hashing, JSON patch and
 * merge patch, YAML as kubectl reads it, the injectable Clock, a thread's CPU time (/proc) and
 * the polling wait.
 */
export type {
  JsonObject,
  KubeObject,
  ObjectMeta,
  OwnerReference,
  StoredObject,
  TypedObject,
} from './object/types.js';
export { deepCopy, deepFreeze, dropManagedFields } from './object/copy.js';
export { objectKey, splitKey } from './keys.js';
export {
  apiVersionOf,
  gvkOf,
  parseApiVersion,
  type GroupVersion,
  type GroupVersionKind,
  type GroupVersionResource,
  type ResourceKind,
} from './gvk.js';
export * from './owner.js';
export * from './selectors/selectors.js';
export { stableStringify } from './json/stable.js';
export { hashOf } from './json/hash.js';
export { deepEqual, isJsonObject } from './json/values.js';
export { jsonEqual } from './json/json-equal.js';
export { semanticEqual, semanticValue } from './json/semantic.js';
export { applyJsonPatch, JsonPatchError, type JsonPatchErrorCode } from './patch/json-patch.js';
export { createMergePatch, mergePatch } from './patch/merge-patch.js';
export { realClock, sleepOn, type Clock, type TimerHandle } from './clock/clock.js';
export { statCpuMs, threadCpuMs } from './proc/thread-cpu.js';
export { FakeClock } from './clock/fake-clock.js';
export { IdleCache, type IdleCacheOptions } from './cache/idle-cache.js';
export { describeValue, eventually, type EventuallyOptions } from './wait/eventually.js';
export { toKubeYaml } from './yaml/kube-yaml.js';
