import { OwnWrites } from './own-writes.js';

const v = (rv: string) => ({ metadata: { resourceVersion: rv } });

describe('OwnWrites', () => {
  it('serves its own latest write while the cache shows a version it replaced, then trusts the cache', () => {
    const own = new OwnWrites();
    own.remember('ns/a', v('1'), v('2'));
    own.remember('ns/a', v('2'), v('3'));
    expect(own.fresher('ns/a', v('1'))).toEqual(v('3'));
    expect(own.fresher('ns/a', v('2'))).toEqual(v('3'));
    expect(own.fresher('ns/a', v('3'))).toEqual(v('3'));
    expect(own.fresher('ns/a', v('1'))).toEqual(v('1')); // forgotten once the cache caught up
    expect(own.fresher('ns/b', undefined)).toBeUndefined();
  });
});
