// A component type's workload resource comes from discovery: a kind the cluster does not serve
// leaves it out, a discovery outage is an error (never read as "not served").
import type { Definition } from '#api';
import { KubeApiError, NoKindMatchError } from '#runtime';
import type { ClusterService } from '../kube/cluster.service.js';
import { CatalogService } from './catalog.service.js';

const webservice = {
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'ComponentDefinition',
  metadata: { name: 'webservice', namespace: 'vela-system' },
  spec: {
    workload: { definition: { apiVersion: 'apps/v1', kind: 'Deployment' } },
    schematic: { cue: { template: 'output: {}' } },
  },
} as unknown as Definition;

/** A catalog over one definition, whose discovery answers with `kindFor`. */
function catalogWith(kindFor: () => Promise<unknown>): CatalogService {
  const cluster = {
    options: { systemNamespace: 'vela-system' },
    informer: () => ({ indexer: { byIndex: () => [webservice] } }),
    mapper: { kindFor },
  };
  return new CatalogService(cluster as unknown as ClusterService);
}

describe('CatalogService: the workload resource of a component type', () => {
  it('names it when the cluster serves the kind', async () => {
    const catalog = catalogWith(async () => ({
      group: 'apps',
      version: 'v1',
      kind: 'Deployment',
      plural: 'deployments',
      namespaced: true,
    }));
    const [entry] = await catalog.list('component', undefined, undefined);
    expect(entry).toMatchObject({
      name: 'webservice',
      workloadKind: 'Deployment',
      workloadResource: 'deployments.apps',
    });
  });

  it('leaves it out when the cluster does not serve the kind, or its group version', async () => {
    for (const err of [
      new NoKindMatchError('apps/v1', 'Deployment'),
      new KubeApiError(
        404,
        'NotFound',
        'the server could not find the requested resource',
        'get',
        '/apis/apps/v1',
      ),
    ]) {
      const [entry] = await catalogWith(() => Promise.reject(err)).list('component', undefined, undefined);
      expect(entry).toMatchObject({ name: 'webservice', workloadKind: 'Deployment' });
      expect(entry!.workloadResource).toBeUndefined();
    }
  });

  it('fails with the error when discovery itself fails', async () => {
    const outage = new KubeApiError(503, 'ServiceUnavailable', 'etcd is down', 'get', '/apis/apps/v1');
    await expect(
      catalogWith(() => Promise.reject(outage)).list('component', undefined, undefined),
    ).rejects.toBe(outage);
    const bug = new TypeError("Cannot read properties of undefined (reading 'kinds')");
    await expect(catalogWith(() => Promise.reject(bug)).list('component', undefined, undefined)).rejects.toBe(
      bug,
    );
  });
});
