import { KubeApiError } from '#runtime';
import { EXIT } from './exit-codes.js';
import { describeFailure } from './failure.js';
import { UserError } from './user-error.js';

describe('describeFailure: one message and the exit code from the one table', () => {
  it('a UserError keeps its code and has no stack trace without -v', async () => {
    const r = await describeFailure(new UserError('bad input'), false);
    expect(r).toEqual({ message: 'error: bad input\n', exitCode: EXIT.INVALID });
  });

  it('an unexpected error is exit 4, points at -v, and shows the stack only with -v', async () => {
    const quiet = await describeFailure(new TypeError('x is undefined'), false);
    expect(quiet.exitCode).toBe(EXIT.INTERNAL);
    expect(quiet.message).toContain('oam: internal error: x is undefined');
    expect(quiet.message).toContain('rerun with -v');
    expect(quiet.message).not.toMatch(/\n\s+at /);
    const verbose = await describeFailure(new TypeError('x is undefined'), true);
    expect(verbose.message).toMatch(/\n\s+at /);
  });

  it('permission denied names the verb and the resource (exit 3)', async () => {
    const err = new KubeApiError(
      403,
      'Forbidden',
      'nope',
      'PATCH',
      '/apis/core.oam.dev/v1beta1/namespaces/shop/applications/hello',
    );
    const r = await describeFailure(err, false);
    expect(r.exitCode).toBe(EXIT.CLUSTER);
    expect(r.message).toContain('cannot patch applications.core.oam.dev "hello" in namespace shop');
  });

  it('no answer is exit 3', async () => {
    const r = await describeFailure(
      new KubeApiError(0, 'NetworkError', 'connect ECONNREFUSED', 'GET', '/version'),
      false,
    );
    expect(r.exitCode).toBe(EXIT.CLUSTER);
    expect(r.message).toContain('does not answer');
  });
});
