import {
  CacheNotSyncedError,
  isConflict,
  KubeApiError,
  NoKindMatchError,
  type ReconcileContext,
  type Result,
} from '#runtime';

/**
 * An error no retry can mend (controller-runtime's TerminalError): the
 * reconcile ends, the error is logged, and the key is not requeued; the next
 * change of what it reads tries again.
 */
export class TerminalError extends Error {
  override name = 'TerminalError';
}

/**
 * Whether `err` means "this object cannot be read now": its kind is not
 * served, the API server answered with an error or did not answer, or its
 * cache did not sync. Anything else (a TypeError, say) is a bug and must
 * surface, not pass for a missing object.
 */
export function isUnreadable(err: unknown): boolean {
  return err instanceof NoKindMatchError || err instanceof KubeApiError || err instanceof CacheNotSyncedError;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Runs one reconcile. A 409 Conflict (someone wrote the object since the
 * cache saw it) is not a failure but a requeue; a TerminalError is logged
 * and not retried; any other error is thrown to the queue, which retries
 * with backoff.
 */
export async function settleErrors(
  ctx: ReconcileContext,
  run: () => Promise<Result | void>,
): Promise<Result | void> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof TerminalError) {
      ctx.log.error('reconcile stopped; not retried', { error: err.message });
      return;
    }
    if (!isConflict(err)) throw err;
    ctx.log.debug('conflict; requeued', { error: errorMessage(err) });
    return { requeue: true };
  }
}
