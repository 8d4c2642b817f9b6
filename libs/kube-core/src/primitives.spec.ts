import { apiVersionOf, gvkOf, parseApiVersion } from './gvk.js';
import { hashOf } from './json/hash.js';
import { stableStringify } from './json/stable.js';
import { objectKey, splitKey } from './keys.js';

describe('keys', () => {
  it('round-trips namespace/name and cluster-scoped names', () => {
    expect(splitKey(objectKey({ metadata: { name: 'web', namespace: 'shop' } }))).toEqual({
      namespace: 'shop',
      name: 'web',
    });
    expect(splitKey(objectKey({ metadata: { name: 'node-1' } }))).toEqual({ namespace: '', name: 'node-1' });
    expect(() => objectKey({ kind: 'Pod', metadata: {} })).toThrow(/Pod has no metadata.name/);
  });
});

describe('group, version, kind', () => {
  it('parses and prints apiVersions, the core group included', () => {
    expect(parseApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(apiVersionOf(parseApiVersion('v1'))).toBe('v1');
    expect(gvkOf({ apiVersion: 'core.oam.dev/v1beta1', kind: 'Application' })).toEqual({
      group: 'core.oam.dev',
      version: 'v1beta1',
      kind: 'Application',
    });
  });
});

describe('stable JSON', () => {
  it('ignores key order and undefined fields', () => {
    expect(stableStringify({ b: [1, { d: 1, c: undefined }], a: null })).toBe('{"a":null,"b":[1,{"d":1}]}');
    expect(hashOf({ x: 1, y: 2 })).toBe(hashOf({ y: 2, x: 1 }));
  });
});
