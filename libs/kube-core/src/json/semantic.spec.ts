import { semanticEqual, semanticValue } from './semantic.js';

describe('semantic equality (apiequality.Semantic)', () => {
  it('drops nulls and empty maps and lists from objects, recursively, and keeps list items', () => {
    expect(
      semanticValue({
        metadata: { creationTimestamp: null, labels: { a: 'b' } },
        spec: { containers: [{ name: 'c', resources: {}, env: [] }], volumes: [{ emptyDir: {} }] },
        x: '',
        n: 0,
      }),
    ).toEqual({
      metadata: { labels: { a: 'b' } },
      spec: { containers: [{ name: 'c' }], volumes: [{}] },
      x: '',
      n: 0,
    });
  });

  it('treats absent, null, empty map and empty list alike, at the top and inside', () => {
    expect(semanticEqual(undefined, {})).toBe(true);
    expect(semanticEqual(null, [])).toBe(true);
    expect(semanticEqual({ a: { b: {} } }, {})).toBe(true);
    expect(
      semanticEqual({ matchLabels: { a: 'b' }, matchExpressions: [] }, { matchLabels: { a: 'b' } }),
    ).toBe(true);
  });

  it('still tells different values, list order and empty strings apart', () => {
    expect(semanticEqual({ a: '' }, {})).toBe(false);
    expect(semanticEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(semanticEqual([{}], [])).toBe(false);
    expect(semanticEqual({ a: 0 }, { a: false })).toBe(false);
  });
});
