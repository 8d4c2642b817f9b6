import { forgetJson, freezeStored, jsonOf } from './json-text.js';

describe('jsonOf', () => {
  it('serializes a stored object once, until the store forgets its text', () => {
    const obj = freezeStored({ kind: 'ConfigMap', data: { k: 'v' } });
    const text = jsonOf(obj);
    expect(text).toBe(JSON.stringify(obj));
    expect(jsonOf(obj)).toBe(text);
    forgetJson(obj);
    expect(jsonOf(obj)).toBe(JSON.stringify(obj));
  });

  it('serializes anything the store does not hold each time, frozen or not', () => {
    const mutable = { data: { k: 'v' } };
    expect(jsonOf(mutable)).toBe('{"data":{"k":"v"}}');
    mutable.data.k = 'w';
    expect(jsonOf(mutable)).toBe('{"data":{"k":"w"}}');
    const frozen = Object.freeze({ data: { k: 'v' } });
    jsonOf(frozen);
    frozen.data.k = 'w';
    expect(jsonOf(frozen)).toBe('{"data":{"k":"w"}}');
  });
});
