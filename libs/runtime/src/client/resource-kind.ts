import type { GroupVersionKind, KubeObject } from '#kube-core';

/**
 * Which REST collection a client talks to: a kind (group '' for the core group)
 * with its resource (URL) name and scope, as a RESTMapping gives them.
 */
export interface ResourceKind extends GroupVersionKind {
  /** The resource (URL) name, e.g. `deployments`. */
  plural: string;
  namespaced: boolean;
}

/**
 * What names a kind for the client and informers: a ResourceKind, or what an
 * object says of itself (apiVersion + kind, e.g. the object itself), which
 * the RestMapper turns into a ResourceKind.
 */
export type KindRef = ResourceKind | Pick<KubeObject, 'apiVersion' | 'kind'>;

/** True for a ResourceKind (it names its resource), false for an apiVersion + kind. */
export function isResourceKind(ref: KindRef): ref is ResourceKind {
  return (
    typeof (ref as ResourceKind).plural === 'string' && typeof (ref as ResourceKind).version === 'string'
  );
}

/** `deployments.apps/v1`: how logs and metrics name a kind. */
export function kindId(kind: ResourceKind): string {
  return `${kind.plural}${kind.group ? `.${kind.group}` : ''}/${kind.version}`;
}

/** The URL path of a collection, or of one object when `name` is given. */
export function resourcePath(
  kind: ResourceKind,
  namespace?: string,
  name?: string,
  subresource?: string,
): string {
  const root = kind.group ? `/apis/${kind.group}/${kind.version}` : `/api/${kind.version}`;
  if (kind.namespaced && name !== undefined && !namespace) {
    throw new Error(`${kindId(kind)} is namespaced: a namespace is needed to address "${name}"`);
  }
  const ns = kind.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  const obj = name !== undefined ? `/${encodeURIComponent(name)}` : '';
  const sub = subresource ? `/${subresource}` : '';
  return `${root}${ns}/${kind.plural}${obj}${sub}`;
}

/** A few built-in kinds the runtime itself needs. */
export const LEASES: ResourceKind = {
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  kind: 'Lease',
  namespaced: true,
};
export const EVENTS: ResourceKind = {
  group: '',
  version: 'v1',
  plural: 'events',
  kind: 'Event',
  namespaced: true,
};
export const CONFIG_MAPS: ResourceKind = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
};
export const CUSTOM_RESOURCE_DEFINITIONS: ResourceKind = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};
export const NAMESPACES: ResourceKind = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};
