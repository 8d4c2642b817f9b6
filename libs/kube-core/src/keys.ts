import type { KubeObject } from './object/types.js';

/** `namespace/name` for namespaced objects, `name` otherwise (client-go MetaNamespaceKeyFunc). */
export function objectKey(obj: KubeObject): string {
  const name = obj.metadata?.name;
  if (!name)
    throw new Error(`object of kind ${obj.kind ?? '?'} has no metadata.name: cannot compute its cache key`);
  const ns = obj.metadata?.namespace;
  return ns ? `${ns}/${name}` : name;
}

/** The inverse of `objectKey`: `namespace/name` → both, `name` → namespace ''. */
export function splitKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
