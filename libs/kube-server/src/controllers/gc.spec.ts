import { ObjectService } from '../objects/service.js';
import { type StoredObject } from '#kube-core';
import { tempObjectService } from '../objects/testing.js';

const opts = { manager: 'test' };

describe('garbage collection and namespace deletion', () => {
  let objects: ObjectService;
  let close: () => Promise<void>;
  const cms = () => objects.info('', 'v1', 'configmaps');

  beforeEach(() => {
    ({ objects, close } = tempObjectService('kube-gc-'));
  });
  afterEach(() => close());

  const create = (
    name: string,
    owners: StoredObject[] = [],
    extra: Record<string, unknown> = {},
    namespace = 'default',
  ) =>
    objects.create(
      cms(),
      namespace,
      {
        metadata: {
          name,
          ...extra,
          ownerReferences: owners.map((o) => ({
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: o.metadata.name,
            uid: o.metadata.uid,
            blockOwnerDeletion: true,
          })),
        },
      },
      opts,
    );
  const exists = (name: string, namespace = 'default') =>
    objects.core.store.get('/configmaps', namespace, name)?.object;
  const settle = async () => {
    for (let i = 0; i < 5; i++) {
      await objects.controllers.idle();
      await new Promise((r) => setImmediate(r));
    }
  };

  it('Background: dependents of a removed owner are deleted, unless another owner remains', async () => {
    const owner = create('owner');
    const other = create('other');
    create('child', [owner]);
    create('shared', [owner, other]);
    create('grandchild', [exists('child') as StoredObject]);
    objects.delete(cms(), 'default', 'owner');
    await settle();
    expect(exists('child')).toBeUndefined();
    expect(exists('grandchild')).toBeUndefined();
    expect(exists('shared')?.metadata.ownerReferences?.map((o) => o.name)).toEqual(['other']);
  });

  it('Orphan: the owner goes, dependents stay without the reference', async () => {
    const owner = create('owner');
    create('child', [owner]);
    objects.delete(cms(), 'default', 'owner', { propagationPolicy: 'Orphan' });
    await settle();
    expect(exists('owner')).toBeUndefined();
    expect(exists('child')?.metadata.ownerReferences).toBeUndefined();
  });

  it('Foreground: the owner waits (deletionTimestamp + finalizer) until its blocking dependents are gone', async () => {
    const owner = create('owner');
    create('child', [owner], { finalizers: ['example.com/hold'] });
    const result = objects.delete(cms(), 'default', 'owner', { propagationPolicy: 'Foreground' });
    expect(result.pending).toBe(true);
    expect(result.object.metadata.finalizers).toEqual(['foregroundDeletion']);
    await settle();
    expect(exists('owner')?.metadata.deletionTimestamp).toBeDefined();
    expect(exists('child')?.metadata.deletionTimestamp).toBeDefined();
    const child = structuredClone(exists('child') as StoredObject);
    child.metadata.finalizers = [];
    objects.update(cms(), 'default', 'child', child, opts);
    await settle();
    expect(exists('child')).toBeUndefined();
    expect(exists('owner')).toBeUndefined();
  });

  it('finalizers keep an object until the last one is removed', () => {
    create('held', [], { finalizers: ['a/b'] });
    const marked = objects.delete(cms(), 'default', 'held');
    expect(marked.pending).toBe(true);
    expect(marked.object.metadata.deletionTimestamp).toBeDefined();
    const obj = structuredClone(exists('held') as StoredObject);
    obj.metadata.finalizers = ['a/b', 'c/d'];
    expect(() => objects.update(cms(), 'default', 'held', obj, opts)).toThrow(
      /no new finalizers can be added/,
    );
    obj.metadata.finalizers = [];
    objects.update(cms(), 'default', 'held', obj, opts);
    expect(exists('held')).toBeUndefined();
  });

  it('a namespace goes Terminating, refuses new content, and is removed once empty', async () => {
    const nsInfo = objects.info('', 'v1', 'namespaces');
    objects.create(nsInfo, undefined, { metadata: { name: 'doomed' } }, opts);
    create('a', [], {}, 'doomed');
    create('held', [], { finalizers: ['x/y'] }, 'doomed');
    const result = objects.delete(nsInfo, undefined, 'doomed');
    expect((result.object.status as { phase: string }).phase).toBe('Terminating');
    expect(() => create('late', [], {}, 'doomed')).toThrow(/because it is being terminated/);
    await settle();
    expect(exists('a', 'doomed')).toBeUndefined();
    expect(objects.core.store.get('/namespaces', '', 'doomed')).toBeDefined();
    const held = structuredClone(exists('held', 'doomed') as StoredObject);
    held.metadata.finalizers = [];
    objects.update(cms(), 'doomed', 'held', held, opts);
    await settle();
    expect(objects.core.store.get('/namespaces', '', 'doomed')).toBeUndefined();
  });
});
