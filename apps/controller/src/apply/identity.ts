import { type KubeObject } from '#kube-core';
import type { AppliedResource } from '#api';

/** Same object across API versions: group, kind, namespace, name (a v2beta2 and a v2 HPA of one name are one object). */
export function resourceKey(r: Pick<AppliedResource, 'apiVersion' | 'kind' | 'namespace' | 'name'>): string {
  const slash = r.apiVersion.indexOf('/');
  const group = slash < 0 ? '' : r.apiVersion.slice(0, slash);
  return `${group}|${r.kind}|${r.namespace ?? ''}|${r.name}`;
}

export function objectKey(obj: KubeObject): string {
  return resourceKey({
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    namespace: obj.metadata?.namespace,
    name: obj.metadata?.name ?? '',
  });
}
