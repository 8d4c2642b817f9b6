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
