/** Where a request path points: a discovery document, a resource (collection/object/subresource), or a plain endpoint. */
export type Route =
  | { type: 'version' | 'health' | 'openapi-v2' | 'openapi-v3-root' | 'api' | 'apis' }
  | { type: 'openapi-v3-gv'; group: string; version: string }
  | { type: 'group'; group: string }
  | { type: 'resource-list'; group: string; version: string }
  | ResourceRoute
  | { type: 'unknown' };

export interface ResourceRoute {
  type: 'resource';
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** Legacy /watch/ path prefix. */
  watchPath?: boolean;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export function route(pathname: string): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/version') return { type: 'version' };
  if (/^\/(healthz|readyz|livez)(\/.*)?$/.test(path)) return { type: 'health' };
  if (path === '/openapi/v2' || path === '/swagger.json') return { type: 'openapi-v2' };
  if (path === '/openapi/v3') return { type: 'openapi-v3-root' };
  const v3 = /^\/openapi\/v3\/(api\/v1|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (v3)
    return v3[2]
      ? { type: 'openapi-v3-gv', group: v3[2], version: v3[3] }
      : { type: 'openapi-v3-gv', group: '', version: 'v1' };
  if (path === '/api') return { type: 'api' };
  if (path === '/apis') return { type: 'apis' };

  const parts = path.split('/').slice(1).map(decodeURIComponent);
  let group: string;
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts.length < 2) return { type: 'unknown' };
    group = '';
    version = parts[1];
    rest = parts.slice(2);
  } else if (parts[0] === 'apis') {
    if (parts.length === 2) return { type: 'group', group: parts[1] };
    group = parts[1];
    version = parts[2];
    rest = parts.slice(3);
  } else return { type: 'unknown' };
  if (rest.length === 0) return { type: 'resource-list', group, version };

  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  const base = { type: 'resource' as const, group, version, ...(watchPath ? { watchPath } : {}) };
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && NAMESPACE_SUBRESOURCES.has(rest[2]))
  ) {
    const [, namespace, resource, name, subresource, ...extra] = rest;
    if (extra.length) return { type: 'unknown' };
    return { ...base, namespace, resource, name, subresource };
  }
  const [resource, name, subresource, ...extra] = rest;
  if (extra.length) return { type: 'unknown' };
  return { ...base, resource, name, subresource };
}
