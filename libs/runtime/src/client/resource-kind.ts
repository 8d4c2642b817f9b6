import type { KubeObject, ResourceKind } from '#kube-core';
import type { ICustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import type { ILease } from 'kubernetes-models/coordination.k8s.io/v1/Lease';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IEvent } from 'kubernetes-models/v1/Event';
import type { INamespace } from 'kubernetes-models/v1/Namespace';

/** Declared in #kube-core (so that #api can type its kinds); the runtime's clients and informers take it. */
export type { ResourceKind };

/**
 * What names a kind for the client and informers: a ResourceKind, or what an
 * object says of itself (apiVersion + kind, e.g. the object itself), which
 * the RestMapper turns into a ResourceKind. A ResourceKind<T> gives its `T`
 * to the call; a bare apiVersion + kind gives none (the call's type argument,
 * KubeObject unless given).
 */
export type KindRef<T extends KubeObject = KubeObject> =
  ResourceKind<T> | Pick<KubeObject, 'apiVersion' | 'kind'>;

/**
 * A kubernetes-models interface as an object the runtime stores: the models
 * are interfaces without KubeObject's index signature, so they meet it here.
 */
export type Model<T> = T & KubeObject;

/** True for a ResourceKind (it names its resource), false for an apiVersion + kind. */
export function isResourceKind<T extends KubeObject>(ref: KindRef<T>): ref is ResourceKind<T> {
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
export const LEASES: ResourceKind<Model<ILease>> = {
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  kind: 'Lease',
  namespaced: true,
};
export const EVENTS: ResourceKind<Model<IEvent>> = {
  group: '',
  version: 'v1',
  plural: 'events',
  kind: 'Event',
  namespaced: true,
};
export const CONFIG_MAPS: ResourceKind<Model<IConfigMap>> = {
  group: '',
  version: 'v1',
  plural: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
};
export const CUSTOM_RESOURCE_DEFINITIONS: ResourceKind<Model<ICustomResourceDefinition>> = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
};
export const NAMESPACES: ResourceKind<Model<INamespace>> = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};
