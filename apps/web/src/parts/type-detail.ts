import { api, call, type CatalogDetail } from '../api/client';

/** Which part of the catalog a type comes from. */
export type Kind = 'components' | 'traits';

const details = new Map<string, Promise<CatalogDetail>>();

/** A type's detail (schema and example), fetched once per page load. */
export function typeDetail(kind: Kind, name: string, namespace: string): Promise<CatalogDetail> {
  const key = `${kind}/${namespace}/${name}`;
  let p = details.get(key);
  if (!p) {
    const path = { name };
    const query = { namespace };
    p =
      kind === 'components'
        ? call(api.GET('/api/v1/catalog/components/{name}', { params: { path, query } }))
        : call(api.GET('/api/v1/catalog/traits/{name}', { params: { path, query } }));
    p.catch(() => details.delete(key));
    details.set(key, p);
  }
  return p;
}
