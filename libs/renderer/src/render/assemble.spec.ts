import type { AppSpec } from '../resolve/index.js';
import { inMemorySource } from '../parse/index.js';
import { assemble, generatedName } from './assemble.js';
import { RenderCache } from './cache.js';

const app = (over: Partial<AppSpec> = {}): AppSpec => ({
  name: 'shop',
  namespace: 'prod',
  owner: { kind: 'Application', name: 'shop' },
  labels: { team: 'storefront', 'app.oam.dev/name': 'spoofed' },
  annotations: { note: 'from the app' },
  components: [],
  policies: [],
  source: inMemorySource('test'),
  ...over,
});

describe('assemble (KubeVela assembly rules)', () => {
  it('names the workload after the component and puts it in the application namespace', () => {
    const out = assemble({ apiVersion: 'apps/v1', kind: 'Deployment', spec: {} }, app(), {
      component: 'api',
      role: 'workload',
      type: 'webservice',
      defaultName: 'api',
    });
    expect(out.metadata).toEqual({
      name: 'api',
      namespace: 'prod',
      labels: {
        team: 'storefront',
        'app.oam.dev/name': 'shop',
        'app.oam.dev/namespace': 'prod',
        'app.oam.dev/component': 'api',
        'app.oam.dev/resourceType': 'WORKLOAD',
        'workload.oam.dev/type': 'webservice',
      },
      annotations: { note: 'from the app' },
    });
  });

  it('keeps names and namespaces the template set, and labels trait outputs', () => {
    const out = assemble(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'custom', namespace: 'other', labels: { x: 'y' } },
      },
      app({ revision: { name: 'shop-v3', number: 3 } }),
      { component: 'api', role: 'trait', type: 'expose', outputName: 'service', defaultName: 'unused' },
    );
    expect(out.metadata?.name).toBe('custom');
    expect(out.metadata?.namespace).toBe('other');
    expect(out.metadata?.labels).toMatchObject({
      x: 'y',
      'app.oam.dev/resourceType': 'TRAIT',
      'app.oam.dev/appRevision': 'shop-v3',
      'trait.oam.dev/type': 'expose',
      'trait.oam.dev/resource': 'service',
    });
    expect(out.metadata?.labels?.['workload.oam.dev/type']).toBeUndefined();
  });

  it('does not give cluster-scoped objects a namespace', () => {
    const out = assemble({ apiVersion: 'v1', kind: 'Namespace' }, app(), {
      component: 'c',
      role: 'workload',
      type: 'k8s-objects',
      defaultName: 'c',
    });
    expect(out.metadata?.namespace).toBeUndefined();
  });

  it('adds a controller ownerReference when the owner uid is known', () => {
    const out = assemble(
      { apiVersion: 'v1', kind: 'ConfigMap' },
      app({ owner: { kind: 'Application', name: 'shop', uid: 'u-1' } }),
      {
        component: 'c',
        role: 'workload',
        type: 't',
        defaultName: 'c',
      },
    );
    expect(out.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'core.oam.dev/v1beta1',
        kind: 'Application',
        name: 'shop',
        uid: 'u-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });

  it('never modifies its input', () => {
    const input = Object.freeze({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: Object.freeze({ labels: Object.freeze({ a: 'b' }) }),
    });
    expect(() =>
      assemble(input, app(), { component: 'c', role: 'workload', type: 't', defaultName: 'c' }),
    ).not.toThrow();
  });

  it('generates stable DNS-1123 names', () => {
    expect(generatedName('API', 'my_trait', 'out')).toBe('api-my-trait-out');
    expect(generatedName('a'.repeat(80))).toHaveLength(63);
  });
});

describe('RenderCache', () => {
  it('returns frozen entries and evicts the least recently used', () => {
    const cache = new RenderCache(2);
    const r = (n: number) => ({
      outputs: {},
      patchKeys: {},
      output: { apiVersion: 'v1', kind: 'ConfigMap', data: { n } },
    });
    cache.set('a', r(1));
    cache.set('b', r(2));
    expect(cache.get('a')).toBeDefined(); // a is now the most recent
    cache.set('c', r(3));
    expect(cache.get('b')).toBeUndefined();
    const hit = cache.get('a')!;
    expect(Object.isFrozen(hit.output)).toBe(true);
    expect(() => ((hit.output as { kind: string }).kind = 'x')).toThrow();
    expect([cache.hits, cache.misses]).toEqual([2, 1]);
  });
});
