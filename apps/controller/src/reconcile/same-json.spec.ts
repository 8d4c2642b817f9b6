import { stableStringify } from '#kube-core';
import { sameJson } from './same-json.js';

describe('sameJson', () => {
  const cases: [unknown, unknown][] = [
    [
      { a: 1, b: [1, 2] },
      { b: [1, 2], a: 1 },
    ],
    [{ a: 1, b: undefined }, { a: 1 }],
    [{ a: 1 }, { a: 1, b: undefined }],
    [{ a: 1 }, { a: 2 }],
    [{ a: 1 }, { b: 1 }],
    [{ a: 1, b: 2 }, { a: 1 }],
    [{ a: undefined }, { b: undefined }],
    [
      [1, undefined],
      [1, null],
    ],
    [
      [1, 2],
      [2, 1],
    ],
    [[1], [1, 1]],
    [{}, []],
    [[], {}],
    [{ a: {} }, { a: [] }],
    [{ a: null }, { a: undefined }],
    [{ a: null }, {}],
    [null, undefined],
    ['1', 1],
    [NaN, null],
    [0, -0],
    [true, 'true'],
    [{ a: '{}' }, { a: {} }],
    [
      { conditions: [{ type: 'Ready', status: 'True', message: undefined }], services: [] },
      { services: [], conditions: [{ status: 'True', type: 'Ready' }] },
    ],
  ];
  it.each(cases)('agrees with stable JSON: %j vs %j', (a, b) => {
    expect(sameJson(a, b)).toBe(stableStringify(a) === stableStringify(b));
    expect(sameJson(b, a)).toBe(stableStringify(a) === stableStringify(b));
  });
});
