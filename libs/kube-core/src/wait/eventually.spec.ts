import { FakeClock } from '../clock/fake-clock.js';
import { eventually } from './eventually.js';

describe('eventually', () => {
  it('returns the first value that is neither undefined nor false', async () => {
    let calls = 0;
    const value = await eventually(() => (++calls < 3 ? undefined : { calls }), 'the third call', {
      intervalMs: 1,
    });
    expect(value).toEqual({ calls: 3 });
  });

  it('fails on timeout with the last value seen, or the last error', async () => {
    const clock = new FakeClock(0);
    const pending = eventually(() => false, 'a thing that never happens', { timeoutMs: 100, clock });
    const failed = expect(pending).rejects.toThrow(
      'timed out after 100 ms waiting for a thing that never happens; last value: false',
    );
    for (let i = 0; i < 10; i++) await clock.advance(25);
    await failed;

    const errored = eventually(
      () => {
        throw new Error('not yet');
      },
      'x',
      { timeoutMs: 50, clock },
    );
    const failedWithError = expect(errored).rejects.toThrow('last error: not yet');
    for (let i = 0; i < 10; i++) await clock.advance(25);
    await failedWithError;
  });
});
