/**
 * Group/version/kind and group/version/resource (k8s.io/apimachinery/pkg/runtime/schema).
 * The group is '' for the core group ("v1").
 */
import type { KubeObject } from './object/types.js';

export interface GroupVersion {
  group: string;
  version: string;
}

export interface GroupVersionKind extends GroupVersion {
  kind: string;
}

export interface GroupVersionResource extends GroupVersion {
  /** The resource (URL) name, e.g. `deployments`. */
  resource: string;
}

/** The key of ResourceKind's type-only member; no value has it. */
declare const objectType: unique symbol;

/**
 * Which REST collection a client talks to: a kind (group '' for the core group)
 * with its resource (URL) name and scope, as a RESTMapping gives them.
 *
 * `T` is the type of the objects the collection holds: clients, informers and
 * indexes of a `ResourceKind<Deployment>` return Deployments. It lives in a
 * type-only member that no value carries, so a kind is still a plain
 * `{group, version, kind, plural, namespaced}` object. It is declared here, at
 * the bottom of the layers, so that libs below #runtime (the OAM kinds of
 * #api) can type their kinds too.
 */
export interface ResourceKind<T extends KubeObject = KubeObject> extends GroupVersionKind {
  /** The resource (URL) name, e.g. `deployments`. */
  plural: string;
  namespaced: boolean;
  /** Type only, never set: the object type of the kind. */
  readonly [objectType]?: T;
}

/** "apps/v1" → {group: 'apps', version: 'v1'}; "v1" → {group: '', version: 'v1'}. */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.indexOf('/');
  return slash < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** {group: 'apps', version: 'v1'} → "apps/v1"; the core group → "v1". */
export function apiVersionOf(gv: GroupVersion): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** The GroupVersionKind of an object; throws when apiVersion or kind is missing. */
export function gvkOf(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): GroupVersionKind {
  const { apiVersion, kind } = obj;
  if (!apiVersion || !kind) throw new Error('an object without apiVersion and kind has no GroupVersionKind');
  return { ...parseApiVersion(apiVersion), kind };
}
