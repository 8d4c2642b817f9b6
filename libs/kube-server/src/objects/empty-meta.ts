import { type ObjectMeta } from '#kube-core';

/**
 * ObjectMeta's collections, all `omitempty` in k8s.io/apimachinery's types.go.
 * managedFields is left to the field manager: a sent `[]` means "reset ownership".
 */
const COLLECTIONS = ['labels', 'annotations', 'ownerReferences', 'finalizers'] as const;

/**
 * kube-apiserver decodes every write into a Go ObjectMeta (built-ins by decoding, custom
 * resources through objectmeta.Coerce) and encodes it back with `omitempty`, so an emptied
 * map or list — e.g. a patch that removes the last label — is absent afterwards, never `{}`.
 */
export function dropEmptyMetaCollections(meta: ObjectMeta): void {
  for (const key of COLLECTIONS) {
    const value = meta[key] as unknown;
    const empty = Array.isArray(value)
      ? value.length === 0
      : value !== null && typeof value === 'object' && Object.keys(value).length === 0;
    if (value === null || empty) delete meta[key];
  }
}
