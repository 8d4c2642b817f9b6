import { labelSelectorMatches as selectorMatches } from './selectors.js';

describe('helpers', () => {
  it('matches label selectors with expressions', () => {
    const sel = {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['a'] }],
    };
    expect(selectorMatches(sel, { app: 'web', tier: 'a' })).toBe(true);
    expect(selectorMatches(sel, { app: 'web' })).toBe(false);
    expect(selectorMatches(undefined, { app: 'web' })).toBe(false);
  });
});
