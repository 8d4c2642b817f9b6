import type { Logger } from '../log/logger.js';

/** What a reconciler is asked to bring in line: one object, by name. `namespace` is '' for cluster-scoped kinds. */
export interface Request {
  namespace: string;
  name: string;
}

/**
 * What to do after a successful reconcile: nothing (the default), retry with
 * backoff (`requeue`), or look again after a fixed time (`requeueAfter`, ms).
 */
export interface Result {
  requeue?: boolean;
  requeueAfter?: number;
}

export interface ReconcileContext {
  /** Aborted when the reconcile times out or the controller stops at once (lost leadership). */
  signal: AbortSignal;
  /** A logger carrying the controller name and the request. */
  log: Logger;
}

/**
 * Brings the world in line with one object (controller-runtime reconcile.Reconciler).
 *
 * Retry contract: a returned Result decides the requeue (see Result); a thrown
 * error is logged with the key and retried with per-key exponential backoff;
 * a thrown TerminalError is logged and not retried until the object changes.
 * Must be idempotent and level-triggered: it is told *which* object, never *what* changed.
 */
export interface Reconciler {
  reconcile(request: Request, context: ReconcileContext): Promise<Result | void>;
}

/** An error retrying cannot fix (invalid spec, missing definition): logged, counted, not requeued. */
export class TerminalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

export function requestKey(r: Request): string {
  return r.namespace ? `${r.namespace}/${r.name}` : r.name;
}
