import type { Definition } from '#api';
import { InMemoryCatalog } from '#renderer';
import type { KubeObject } from '#kube-core';
import { ResolveMemo } from './resolve.js';

const definition = (kind: string, name: string, spec: Record<string, unknown>) =>
  ({
    apiVersion: 'core.oam.dev/v1beta1',
    kind,
    metadata: { name, namespace: 'vela-system', resourceVersion: '1' },
    spec: { schematic: { cue: { template: 'output: {}' } }, ...spec },
  }) as Definition;
const webservice = definition('ComponentDefinition', 'webservice', {
  workload: { definition: { apiVersion: 'apps/v1', kind: 'Deployment' } },
});
const scaler = definition('TraitDefinition', 'scaler', {});
const app = (image: string, status = 'running'): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name: 'a', namespace: 'ns', uid: 'u1', generation: 1 },
  spec: {
    components: [{ name: 'a', type: 'webservice', properties: { image }, traits: [{ type: 'scaler' }] }],
  },
  status: { status },
});

describe('ResolveMemo', () => {
  it('gives the same resolve while the owner, the catalog and its definitions are the same', () => {
    const catalog = new InMemoryCatalog([[webservice, scaler]]);
    const memo = new ResolveMemo();
    const first = memo.resolve(app('x'), catalog);
    expect(first.spec?.components[0].properties).toEqual({ image: 'x' });
    expect(memo.resolve(app('x', 'rendering'), catalog)).toBe(first); // a status change: the same inputs
    const changed = memo.resolve(app('y'), catalog);
    expect(changed).not.toBe(first);
    expect(changed.spec?.components[0].properties).toEqual({ image: 'y' });
  });

  it('resolves again when a definition it used changed, or the catalog is another', () => {
    const memo = new ResolveMemo();
    const first = memo.resolve(app('x'), new InMemoryCatalog([[webservice, scaler]]));
    const catalog = new InMemoryCatalog([[webservice, { ...scaler, metadata: { ...scaler.metadata } }]]);
    const again = memo.resolve(app('x'), catalog);
    expect(again).not.toBe(first);
    expect(memo.resolve(app('x'), catalog)).toBe(again);
  });

  it('does not keep a resolve that failed, and forgets an owner', () => {
    const memo = new ResolveMemo();
    const missing = new InMemoryCatalog([[webservice]]);
    const failed = memo.resolve(app('x'), missing);
    expect(failed.errors.length).toBeGreaterThan(0);
    expect(memo.resolve(app('x'), missing)).not.toBe(failed);
    const catalog = new InMemoryCatalog([[webservice, scaler]]);
    const ok = memo.resolve(app('x'), catalog);
    memo.forget(app('x'));
    expect(memo.resolve(app('x'), catalog)).not.toBe(ok);
  });
});
