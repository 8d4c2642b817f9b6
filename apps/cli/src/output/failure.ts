import { EXIT, type ExitCode } from './exit-codes.js';
import { UserError } from './user-error.js';

/**
 * Every failure as one message that says what to do next, with its exit
 * code (exit-codes.ts). Stack traces and HTTP details only with -v.
 */
export async function describeFailure(
  err: unknown,
  verbose: boolean,
): Promise<{ message: string; exitCode: ExitCode | number }> {
  const detail = verbose && err instanceof Error && err.stack ? `\n${err.stack}\n` : '';
  if (err instanceof UserError)
    return { message: `error: ${err.message}\n${detail}`, exitCode: err.exitCode };
  // A cluster's refusal that escaped a command's own handling still reads as one (exit 3), not as a bug.
  if ((err as Error)?.name === 'KubeApiError') {
    const { clusterError } = await import('../cluster/kube-errors.js');
    const mapped = clusterError(err, 'the cluster');
    if (mapped instanceof UserError)
      return { message: `error: ${mapped.message}\n${detail}`, exitCode: mapped.exitCode };
    const e = err as Error & { status?: unknown };
    return {
      message: `error: the cluster answered: ${e.message}\n${verbose ? `${JSON.stringify(e.status, null, 2)}\n${detail}` : ''}`,
      exitCode: EXIT.CLUSTER,
    };
  }
  const text = err instanceof Error ? err.message : String(err);
  return {
    message: `oam: internal error: ${text}\n${detail || '(rerun with -v for the stack trace, and please report it)\n'}`,
    exitCode: EXIT.INTERNAL,
  };
}
