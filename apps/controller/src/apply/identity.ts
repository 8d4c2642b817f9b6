import { parseApiVersion, type KubeObject } from '#kube-core';
import type { AppliedResource } from '#api';

/** Same object across API versions: group, kind, namespace, name (a v2beta2 and a v2 HPA of one name are one object). */
export function resourceKey(r: Pick<AppliedResource, 'apiVersion' | 'kind' | 'namespace' | 'name'>): string {
  const { group } = parseApiVersion(r.apiVersion);
  return `${group}|${r.kind}|${r.namespace ?? ''}|${r.name}`;
}

/** `resourceKey` of a live or intended object (not a cache key: see '#kube-core' objectKey). */
export function identityKey(obj: KubeObject): string {
  return resourceKey({
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    namespace: obj.metadata?.namespace,
    name: obj.metadata?.name ?? '',
  });
}

/** `Kind "namespace/name"`, for events and logs. */
export function describeRef(r: AppliedResource): string {
  return `${r.kind} "${r.namespace ? `${r.namespace}/` : ''}${r.name}"`;
}
