import { nearest } from './nearest.js';

describe('nearest', () => {
  it('finds a close typo', () => {
    expect(nearest('websevice', ['task', 'webservice', 'worker'])).toBe('webservice');
    expect(nearest('scalr', ['cpuscaler', 'gateway', 'hpa', 'scaler'])).toBe('scaler');
    expect(nearest('imagePullPolicyy', ['image', 'imagePullPolicy'])).toBe('imagePullPolicy');
  });

  it('counts a swapped pair of letters as a typo, but not a different short word', () => {
    expect(nearest('nmae', ['name'])).toBe('name');
    expect(nearest('d', ['a', 'b'])).toBeUndefined();
    expect(nearest('D', ['d'])).toBe('d');
  });

  it('ignores case', () => {
    expect(nearest('IMAGE', ['image', 'port'])).toBe('image');
  });

  it('returns nothing when nothing is close or there are no candidates', () => {
    expect(nearest('database', ['image', 'port'])).toBeUndefined();
    expect(nearest('image', [])).toBeUndefined();
  });

  it('prefers the closest candidate, then the earlier one', () => {
    expect(nearest('port', ['ports', 'port1', 'sort'])).toBe('ports');
    expect(nearest('abcd', ['abce', 'abcf'])).toBe('abce');
  });
});
