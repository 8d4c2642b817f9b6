import fc from 'fast-check';
import { deepCopy, type KubeObject } from '#kube-core';
import { Indexer, NAMESPACE_INDEX, namespaceIndexFunc, OWNER_UID_INDEX, ownerUidIndexFunc } from './store.js';

const cm = (namespace: string, name: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace, name, ...extra },
  data: { k: 'v' },
});

describe('Indexer', () => {
  const make = () =>
    new Indexer({
      [NAMESPACE_INDEX]: namespaceIndexFunc,
      [OWNER_UID_INDEX]: ownerUidIndexFunc,
      byType: (o) => (o.metadata?.labels?.type ? [o.metadata.labels.type] : []),
    });

  it('finds objects by namespace and by custom indexes, and keeps indexes in step with updates and deletes', () => {
    const s = make();
    s.upsert(cm('a', 'x', { labels: { type: 'web' } }));
    s.upsert(cm('a', 'y', { ownerReferences: [{ apiVersion: 'v1', kind: 'P', name: 'p', uid: 'u1' }] }));
    s.upsert(cm('b', 'x', { labels: { type: 'web' } }));
    expect(
      s
        .byIndex(NAMESPACE_INDEX, 'a')
        .map((o) => o.metadata!.name)
        .sort(),
    ).toEqual(['x', 'y']);
    expect(s.byIndex('byType', 'web')).toHaveLength(2);
    expect(s.byIndex(OWNER_UID_INDEX, 'u1')[0].metadata!.name).toBe('y');
    s.upsert(cm('a', 'x', { labels: { type: 'worker' } }));
    expect(s.byIndex('byType', 'web').map((o) => o.metadata!.namespace)).toEqual(['b']);
    s.delete('b/x');
    expect(s.byIndex('byType', 'web')).toEqual([]);
    expect(s.indexValues(NAMESPACE_INDEX).sort()).toEqual(['a']);
    expect(() => s.byIndex('nope', 'x')).toThrow(/no indexer named "nope"/);
  });

  it('does not let callers mutate cached objects; deepCopy gives an editable copy', () => {
    'use strict';
    const s = make();
    s.upsert(cm('a', 'x'));
    const got = s.get('a', 'x')!;
    expect(() => {
      (got.data as Record<string, string>).k = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      got.metadata!.name = 'other';
    }).toThrow(TypeError);
    const copy = deepCopy(got);
    (copy.data as Record<string, string>).k = 'changed';
    expect((s.get('a', 'x')!.data as Record<string, string>).k).toBe('v');
  });

  it('replace swaps contents and indexes at once (no reader sees a mix)', () => {
    const s = make();
    s.upsert(cm('a', 'old'));
    s.replace([cm('b', 'n1'), cm('b', 'n2')]);
    expect(s.listKeys().sort()).toEqual(['b/n1', 'b/n2']);
    expect(s.byIndex(NAMESPACE_INDEX, 'a')).toEqual([]);
    expect(s.byIndex(NAMESPACE_INDEX, 'b')).toHaveLength(2);
  });

  it('indexes always agree with a scan, for any sequence of upserts, deletes and replaces', () => {
    const op = fc.oneof(
      fc.record({
        t: fc.constant('up' as const),
        ns: fc.constantFrom('a', 'b'),
        name: fc.constantFrom('1', '2', '3'),
        type: fc.constantFrom('web', 'db'),
      }),
      fc.record({
        t: fc.constant('del' as const),
        ns: fc.constantFrom('a', 'b'),
        name: fc.constantFrom('1', '2', '3'),
      }),
      fc.record({ t: fc.constant('replace' as const), n: fc.nat(3) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const s = make();
        for (const o of ops) {
          if (o.t === 'up') s.upsert(cm(o.ns, o.name, { labels: { type: o.type } }));
          else if (o.t === 'del') s.delete(`${o.ns}/${o.name}`);
          else
            s.replace(Array.from({ length: o.n }, (_, i) => cm('a', String(i), { labels: { type: 'web' } })));
          for (const type of ['web', 'db']) {
            const scanned = s
              .list()
              .filter((x) => x.metadata?.labels?.type === type)
              .map((x) => `${x.metadata!.namespace}/${x.metadata!.name}`);
            const indexed = s
              .byIndex('byType', type)
              .map((x) => `${x.metadata!.namespace}/${x.metadata!.name}`);
            expect(indexed.sort()).toEqual(scanned.sort());
          }
        }
      }),
    );
  });
});
