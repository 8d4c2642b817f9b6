import { isConflict, type ReconcileContext, type Result } from '#runtime';
import { errorMessage } from '../apply/applier.js';

/**
 * Runs one reconcile; a 409 Conflict (someone wrote the object since the
 * cache saw it) is not a failure but a requeue. Any other error is thrown to
 * the queue, which retries with backoff.
 */
export async function requeueOnConflict(
  ctx: ReconcileContext,
  run: () => Promise<Result | void>,
): Promise<Result | void> {
  try {
    return await run();
  } catch (err) {
    if (!isConflict(err)) throw err;
    ctx.log.debug('conflict; requeued', { error: errorMessage(err) });
    return { requeue: true };
  }
}
