import type { KubeObject } from '#kube-core';
import { ignoreStatusOnlyUpdates } from './predicates.js';

const app = (
  rv: string,
  patch: Partial<KubeObject['metadata']> = {},
  spec: unknown = { a: 1 },
): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name: 'a', resourceVersion: rv, generation: 1, labels: { x: 'y' }, ...patch },
  spec: spec as KubeObject['spec'],
  status: { status: rv },
});
const passes = (o: KubeObject, n: KubeObject) => ignoreStatusOnlyUpdates.update!(o, n);

describe('ignoreStatusOnlyUpdates', () => {
  it('drops a status-only update and passes a resync', () => {
    expect(passes(app('1'), app('2'))).toBe(false);
    expect(passes(app('1'), app('1'))).toBe(true);
  });

  it('passes a spec change (a new generation), labels, annotations, finalizers and deletion', () => {
    expect(passes(app('1'), app('2', { generation: 2 }, { a: 2 }))).toBe(true);
    expect(passes(app('1'), app('2', { labels: { x: 'z' } }))).toBe(true);
    expect(passes(app('1'), app('2', { annotations: { k: 'v' } }))).toBe(true);
    expect(passes(app('1'), app('2', { finalizers: ['f'] }))).toBe(true);
    expect(passes(app('1'), app('2', { deletionTimestamp: '2026-01-01T00:00:00Z' }))).toBe(true);
  });

  it('compares the spec itself for an object without a generation', () => {
    const bare = (rv: string, spec: unknown) => app(rv, { generation: undefined }, spec);
    expect(passes(bare('1', { a: 1 }), bare('2', { a: 1 }))).toBe(false);
    expect(passes(bare('1', { a: 1 }), bare('2', { a: 2 }))).toBe(true);
  });
});
