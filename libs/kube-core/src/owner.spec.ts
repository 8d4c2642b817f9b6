import {
  controllerOf,
  finalizersWith,
  finalizersWithout,
  hasFinalizer,
  isControlledBy,
  ownerReferenceTo,
} from './owner.js';

const app = {
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name: 'shop', uid: 'u1' },
};

describe('owner and finalizer helpers', () => {
  it('round-trips an owner reference', () => {
    const ref = ownerReferenceTo(app, { controller: true, blockOwnerDeletion: true });
    expect(ref).toEqual({
      ...app.metadata,
      apiVersion: app.apiVersion,
      kind: app.kind,
      controller: true,
      blockOwnerDeletion: true,
    });
    const child = { metadata: { ownerReferences: [{ ...ref, controller: false, uid: 'other' }, ref] } };
    expect(controllerOf(child)).toBe(ref);
    expect(isControlledBy(child, 'u1')).toBe(true);
    expect(isControlledBy(child, 'other')).toBe(false);
    expect(() => ownerReferenceTo({ kind: 'Application', metadata: { name: 'x' } })).toThrow(
      'cannot refer to an owner without apiVersion, kind, name and uid (Application "x")',
    );
  });

  it('adds and removes a finalizer without duplicates or reordering', () => {
    const obj = { metadata: { finalizers: ['a', 'b'] } };
    expect(finalizersWith(obj, 'c')).toEqual(['a', 'b', 'c']);
    expect(finalizersWith(obj, 'a')).toEqual(['a', 'b']);
    expect(finalizersWithout(obj, 'a')).toEqual(['b']);
    expect(hasFinalizer(obj, 'b')).toBe(true);
    expect(hasFinalizer({}, 'b')).toBe(false);
  });
});
