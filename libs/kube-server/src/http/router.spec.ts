import { route, type ResourceRoute } from './router.js';

const parts = (path: string) => {
  const r = route(path) as ResourceRoute;
  return [r.resource, r.namespace, r.name, r.subresource];
};

describe('route', () => {
  it.each([
    ['/version', { type: 'version' }],
    ['/readyz', { type: 'health' }],
    ['/api', { type: 'api' }],
    ['/apis', { type: 'apis' }],
    ['/apis/apps', { type: 'group', group: 'apps' }],
    ['/api/v1', { type: 'resource-list', group: '', version: 'v1' }],
    ['/apis/apps/v1', { type: 'resource-list', group: 'apps', version: 'v1' }],
    ['/openapi/v3/apis/apps/v1', { type: 'openapi-v3-gv', group: 'apps', version: 'v1' }],
    ['/openapi/v3/api/v1', { type: 'openapi-v3-gv', group: '', version: 'v1' }],
  ])('%s', (path, expected) => {
    expect(route(path)).toEqual(expected);
  });

  it('parses namespaced collections, objects and subresources', () => {
    expect(route('/api/v1/namespaces/ns/configmaps')).toMatchObject({
      type: 'resource',
      group: '',
      resource: 'configmaps',
      namespace: 'ns',
    });
    expect(route('/apis/apps/v1/namespaces/ns/deployments/web/scale')).toMatchObject({
      group: 'apps',
      version: 'v1',
      namespace: 'ns',
      resource: 'deployments',
      name: 'web',
      subresource: 'scale',
    });
    expect(parts('/api/v1/pods')).toEqual(['pods', undefined, undefined, undefined]);
  });

  it('tells a namespace object and its subresources from namespaced collections', () => {
    expect(parts('/api/v1/namespaces/ns')).toEqual(['namespaces', undefined, 'ns', undefined]);
    expect(route('/api/v1/namespaces/ns/status')).toMatchObject({
      resource: 'namespaces',
      name: 'ns',
      subresource: 'status',
    });
    expect(route('/api/v1/namespaces/ns/finalize')).toMatchObject({
      resource: 'namespaces',
      name: 'ns',
      subresource: 'finalize',
    });
    expect(route('/api/v1/namespaces/ns/secrets/s')).toMatchObject({
      resource: 'secrets',
      namespace: 'ns',
      name: 's',
    });
  });

  it('understands the legacy /watch/ prefix and rejects extra segments', () => {
    expect(route('/api/v1/watch/namespaces/ns/pods')).toMatchObject({
      resource: 'pods',
      namespace: 'ns',
      watchPath: true,
    });
    expect(route('/api/v1/namespaces/ns/pods/p/status/extra')).toEqual({ type: 'unknown' });
    expect(route('/nope')).toEqual({ type: 'unknown' });
  });
});
