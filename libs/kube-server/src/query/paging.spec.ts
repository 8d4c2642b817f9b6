import { decodeContinue, encodeContinue } from './paging.js';

describe('continue tokens', () => {
  it('round-trip the list resourceVersion and the start key', () => {
    const token = encodeContinue({ rv: 42, start: 'ns/name-7' });
    expect(token).not.toContain('name-7');
    expect(decodeContinue(token)).toEqual({ rv: 42, start: 'ns/name-7' });
  });

  it('refuse garbage with 400 BadRequest', () => {
    expect(() => decodeContinue('garbage')).toThrow(
      expect.objectContaining({ code: 400, reason: 'BadRequest' }),
    );
    const foreign = Buffer.from(JSON.stringify({ v: 'other', rv: 1, start: 'x' })).toString('base64url');
    expect(() => decodeContinue(foreign)).toThrow(/continue key is not valid/);
  });
});
