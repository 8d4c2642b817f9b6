/** Which REST collection a client talks to: any group/version/plural, namespaced or not. */
export interface ResourceKind {
  /** '' for the core group. */
  group: string;
  version: string;
  /** The resource (URL) name, e.g. `deployments`. */
  plural: string;
  kind: string;
  namespaced: boolean;
}

export function apiVersionOf(kind: ResourceKind): string {
  return kind.group ? `${kind.group}/${kind.version}` : kind.version;
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
export const NAMESPACES: ResourceKind = {
  group: '',
  version: 'v1',
  plural: 'namespaces',
  kind: 'Namespace',
  namespaced: false,
};
