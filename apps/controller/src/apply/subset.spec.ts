import { isSubset } from './subset.js';

describe('isSubset', () => {
  it('holds when every wanted field has the same value; extra live fields are fine', () => {
    expect(
      isSubset({ a: 1, b: { c: [1, { d: 'x' }] } }, { a: 1, z: 2, b: { c: [1, { d: 'x', e: 3 }, 9] } }),
    ).toBe(true);
  });

  it('fails on a changed value, a missing field or a shorter list', () => {
    expect(isSubset({ a: 1 }, { a: 2 })).toBe(false);
    expect(isSubset({ a: { b: 1 } }, { a: {} })).toBe(false);
    expect(isSubset({ l: [1, 2] }, { l: [1] })).toBe(false);
    expect(isSubset({ l: [1] }, { l: { 0: 1 } })).toBe(false);
  });
});
