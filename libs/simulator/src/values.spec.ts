import { scaledValue } from './values.js';

describe('helpers', () => {
  it('scales int-or-percent values like intstr', () => {
    expect(scaledValue('25%', 2, true)).toBe(1);
    expect(scaledValue('25%', 2, false)).toBe(0);
    expect(scaledValue(3, 10, false)).toBe(3);
  });
});
