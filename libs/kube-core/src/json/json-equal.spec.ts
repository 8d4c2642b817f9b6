import { stableStringify } from './stable.js';
import { jsonEqual } from './json-equal.js';

describe('jsonEqual', () => {
  const cases: Array<[unknown, unknown]> = [
    [
      { a: 1, b: [1, { c: 'x' }] },
      { b: [1, { c: 'x' }], a: 1 },
    ],
    [{ a: 1, b: undefined }, { a: 1 }],
    [{ a: null }, {}],
    [{ a: null }, { a: undefined }],
    [
      [1, 2],
      [2, 1],
    ],
    [[undefined], [null]],
    [{ a: [] }, { a: {} }],
    [{ a: '1' }, { a: 1 }],
    [{ a: { b: 1 } }, { a: { b: 1, c: 2 } }],
    [{ a: 0 }, { a: false }],
    [null, undefined],
    [{}, []],
    ['x', 'x'],
  ];
  it.each(cases)('agrees with comparing stableStringify texts: %j and %j', (a, b) => {
    const expected = stableStringify(a) === stableStringify(b);
    expect(jsonEqual(a, b)).toBe(expected);
    expect(jsonEqual(b, a)).toBe(expected);
  });
});
