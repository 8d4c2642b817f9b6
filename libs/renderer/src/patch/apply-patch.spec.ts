import fc from 'fast-check';
import { applyPatch, PATCH_STRATEGY } from './index.js';

const deployment = () => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', labels: { app: 'api' } },
  spec: {
    replicas: 1,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } },
    template: {
      spec: {
        containers: [
          {
            name: 'api',
            image: 'nginx:1',
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
          },
        ],
        volumes: [{ name: 'data', emptyDir: {} }],
      },
    },
  },
});

const CONTAINERS = 'spec.template.spec.containers';

describe('applyPatch', () => {
  it('merges maps recursively and lets scalars from the patch win', () => {
    const out = applyPatch(
      deployment(),
      { metadata: { labels: { tier: 'web', app: 'api2' } }, spec: { replicas: 3 } },
      {},
    ) as any;
    expect(out.metadata).toEqual({ name: 'api', labels: { app: 'api2', tier: 'web' } });
    expect(out.spec.replicas).toBe(3);
    expect(out.spec.template.spec.containers[0].image).toBe('nginx:1');
  });

  it('replaces lists that have no patch key', () => {
    const out = applyPatch(
      deployment(),
      { spec: { template: { spec: { volumes: [{ name: 'cache', emptyDir: {} }] } } } },
      {},
    ) as any;
    expect(out.spec.template.spec.volumes).toEqual([{ name: 'cache', emptyDir: {} }]);
  });

  it('merges containers by name and appends new ones in patch order (a sidecar)', () => {
    const patch = {
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'log', image: 'fluentd' },
              { name: 'api', resources: { limits: { cpu: '1' } } },
              { name: 'proxy', image: 'envoy' },
            ],
          },
        },
      },
    };
    const out = applyPatch(deployment(), patch, { [CONTAINERS]: 'name' }) as any;
    const containers = out.spec.template.spec.containers;
    expect(containers.map((c: any) => c.name)).toEqual(['api', 'log', 'proxy']);
    expect(containers[0]).toMatchObject({ image: 'nginx:1', resources: { limits: { cpu: '1' } } });
  });

  it('merges containers[].env by name inside a container merged by name', () => {
    const patch = {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'api',
                env: [
                  { name: 'B', value: 'two' },
                  { name: 'C', value: '3' },
                ],
              },
            ],
          },
        },
      },
    };
    const keys = { [CONTAINERS]: 'name', [`${CONTAINERS}[].env`]: 'name' };
    const out = applyPatch(deployment(), patch, keys) as any;
    expect(out.spec.template.spec.containers[0].env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'two' },
      { name: 'C', value: '3' },
    ]);
  });

  it('without a key for env, the patched container replaces its env list', () => {
    const patch = { spec: { template: { spec: { containers: [{ name: 'api', env: [{ name: 'C' }] }] } } } };
    const out = applyPatch(deployment(), patch, { [CONTAINERS]: 'name' }) as any;
    expect(out.spec.template.spec.containers[0].env).toEqual([{ name: 'C' }]);
  });

  it('merges ports by containerPort (numeric keys)', () => {
    const patch = {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'api',
                ports: [
                  { containerPort: 80, name: 'http' },
                  { containerPort: 9090, name: 'metrics' },
                ],
              },
            ],
          },
        },
      },
    };
    const keys = { [CONTAINERS]: 'name', [`${CONTAINERS}[].ports`]: 'containerPort' };
    const out = applyPatch(deployment(), patch, keys) as any;
    expect(out.spec.template.spec.containers[0].ports).toEqual([
      { containerPort: 80, protocol: 'TCP', name: 'http' },
      { containerPort: 9090, name: 'metrics' },
    ]);
  });

  it('appends patch items that lack the key field', () => {
    const patch = { spec: { template: { spec: { containers: [{ image: 'anonymous' }] } } } };
    const out = applyPatch(deployment(), patch, { [CONTAINERS]: 'name' }) as any;
    expect(out.spec.template.spec.containers).toHaveLength(2);
  });

  it('adds fields the target does not have, including whole lists', () => {
    const patch = { spec: { template: { spec: { tolerations: [{ key: 'k', operator: 'Exists' }] } } } };
    const out = applyPatch(deployment(), patch, { 'spec.template.spec.tolerations': 'key' }) as any;
    expect(out.spec.template.spec.tolerations).toEqual([{ key: 'k', operator: 'Exists' }]);
  });

  it('patchStrategy=retainKeys keeps only the keys the patch names', () => {
    const patch = { spec: { strategy: { type: 'Recreate' } } };
    const out = applyPatch(deployment(), patch, { 'spec.strategy': PATCH_STRATEGY.retainKeys }) as any;
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    const merged = applyPatch(deployment(), patch, {}) as any;
    expect(merged.spec.strategy).toEqual({ type: 'Recreate', rollingUpdate: { maxSurge: 1 } });
  });

  it('patchStrategy=replace replaces the value wholesale, even a keyed list', () => {
    const patch = { spec: { template: { spec: { containers: [{ name: 'only' }] } } } };
    const out = applyPatch(deployment(), patch, { [CONTAINERS]: PATCH_STRATEGY.replace }) as any;
    expect(out.spec.template.spec.containers).toEqual([{ name: 'only' }]);
  });

  it('never mutates its inputs and shares no structure with them', () => {
    const target = deployment();
    const patch = { spec: { template: { spec: { containers: [{ name: 'api', image: 'x' }] } } } };
    const before = JSON.stringify([target, patch]);
    const out = applyPatch(target, patch, { [CONTAINERS]: 'name' }) as any;
    expect(JSON.stringify([target, patch])).toBe(before);
    out.metadata.labels.changed = 'yes';
    out.spec.template.spec.volumes.push({});
    expect(JSON.stringify([target, patch])).toBe(before);
  });

  it('is deterministic and idempotent for map-only patches (property)', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer(), fc.string(), fc.boolean(), tie('map')),
      map: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd'), tie('value'), { maxKeys: 3 }),
    }));
    fc.assert(
      fc.property(json.map, json.map, (target, patch) => {
        const once = applyPatch(target as object, patch as object, {});
        expect(applyPatch(target as object, patch as object, {})).toEqual(once);
        expect(applyPatch(once, patch as object, {})).toEqual(once);
      }),
    );
  });
});
