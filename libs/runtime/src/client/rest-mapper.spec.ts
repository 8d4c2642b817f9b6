import { KubeApiError } from './api-error.js';
import { NoKindMatchError, RestMapper } from './rest-mapper.js';
import type { KubeTransport } from './transport.js';

/** A transport that answers discovery from a table and counts requests. */
function discovery(table: Record<string, { name: string; kind: string; namespaced: boolean }[]>) {
  const paths: string[] = [];
  const transport = {
    request: async ({ path }: { path: string }) => {
      paths.push(path);
      const resources = table[path];
      if (!resources) throw new KubeApiError(404, 'NotFound', 'not found', 'GET', path);
      return { resources };
    },
  } as unknown as KubeTransport;
  return { transport, paths, table };
}

describe('RestMapper', () => {
  it('maps apiVersion + kind to resource and scope, one discovery request per group version', async () => {
    const d = discovery({
      '/apis/apps/v1': [
        { name: 'deployments', kind: 'Deployment', namespaced: true },
        { name: 'deployments/scale', kind: 'Scale', namespaced: true },
      ],
      '/api/v1': [{ name: 'namespaces', kind: 'Namespace', namespaced: false }],
    });
    const mapper = new RestMapper(d.transport);
    expect(await mapper.kindFor({ apiVersion: 'apps/v1', kind: 'Deployment' })).toEqual({
      group: 'apps',
      version: 'v1',
      plural: 'deployments',
      kind: 'Deployment',
      namespaced: true,
    });
    await mapper.kindFor({ apiVersion: 'apps/v1', kind: 'Deployment' });
    expect((await mapper.kindFor({ apiVersion: 'v1', kind: 'Namespace' })).namespaced).toBe(false);
    expect(d.paths).toEqual(['/apis/apps/v1', '/api/v1']);
  });

  it('says clearly when a kind is not served, and finds it once its CRD is installed', async () => {
    let now = 0;
    const d = discovery({});
    const mapper = new RestMapper(d.transport, { refreshAfterMs: 1000, now: () => now });
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget' };
    await expect(mapper.kindFor(widget)).rejects.toThrow(NoKindMatchError);
    await expect(mapper.kindFor(widget)).rejects.toThrow(
      'the server does not serve kind "Widget" in "example.com/v1" (is its CRD installed?)',
    );
    expect(d.paths).toHaveLength(1); // asked again only after refreshAfterMs
    d.table['/apis/example.com/v1'] = [{ name: 'widgets', kind: 'Widget', namespaced: true }];
    now = 1500;
    expect((await mapper.kindFor(widget)).plural).toBe('widgets');
  });
});
