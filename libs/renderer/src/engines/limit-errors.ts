import { RenderError } from '../errors.js';
import { WorkerCrashError, WorkerLimitError, WorkerTimeoutError } from './worker-pool.js';

/**
 * A pool failure that is not the template's own error, as the renderer reports it, naming
 * the definition: a limit (`ComponentDefinition "bomb": cpu time limit 5s exceeded`), the
 * wall-clock backstop, or a worker that died under the template.
 * Anything else (an abort, a bug) is returned as it is, for the caller to rethrow.
 */
export function limitError(definition: string, err: unknown, engine: 'CUE' | 'Handlebars'): unknown {
  if (err instanceof WorkerLimitError)
    return new RenderError(`${definition}: ${err.message}`, {}, 'timeout', err.limit);
  if (err instanceof WorkerTimeoutError) {
    return new RenderError(
      `${definition}: evaluation did not finish within ${err.timeoutMs} ms (the template may never terminate)`,
      {},
      'timeout',
    );
  }
  if (err instanceof WorkerCrashError) {
    return new RenderError(`${definition}: the ${engine} evaluator failed: ${err.message}`, {}, 'definition');
  }
  return err;
}
