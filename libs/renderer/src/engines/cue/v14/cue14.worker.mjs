/* global WebAssembly */
// A worker thread hosting one CUE v0.14.1 evaluator (our own Go build, ./wasm-runtime.mjs).
// Plain JS because Node 20 cannot start a .ts file in a worker. It speaks the protocol of
// ../../worker-pool.ts: `{ type: 'ready', tid }` once loaded; then `{ id, ok, value }` or
// `{ id, ok: false, error, errors?, fatal? }` per task, `fatal` once the Go runtime has died
// (the pool then replaces this worker). Each template is compiled once per worker, kept by
// its source (the Go side keys it by SHA-256).
import { parentPort, workerData } from 'node:worker_threads';
import { threadId } from '../../thread-id.mjs';
import { CueEvalError, CueRuntimeDiedError, loadCue } from './wasm-runtime.mjs';

/**
 * @typedef {{ op: 'version' }
 *   | { op: 'render'; source: string; parameter: unknown; context: unknown }
 *   | { op: 'evaluate'; source: string; parameter: unknown; context: unknown; fields: string[] }
 *   | { op: 'vet'; source: string; properties: unknown }
 *   | { op: 'schema'; source: string }
 *   | { op: 'openapi'; source: string }
 *   | { op: 'comments'; source: string }
 *   | { op: 'reads'; source: string }
 *   | { op: 'memory' } | { op: 'panic' } | { op: 'crash' }} Cue14Task
 */

// The pool says whether this process renders for long (see loadCue).
const cue = await loadCue({
  longRunning: workerData?.longRunning === true,
  memoryLimitBytes: workerData?.memoryLimitBytes,
});
/**
 * Template source → its handle, or the error compiling it: a template that does not compile
 * is not compiled again (each compile of a source is kept by the CUE context for good).
 * @type {Map<string, string | Error>}
 */
const handles = new Map();
parentPort?.postMessage({ type: 'ready', tid: threadId(), loadMs: cue.loadMs, longRunning: cue.longRunning });

/** @param {string} source */
function handleOf(source) {
  let handle = handles.get(source);
  if (handle === undefined) {
    try {
      handle = cue.compile(source);
    } catch (err) {
      if (!(err instanceof CueEvalError)) throw err;
      handle = err;
    }
    handles.set(source, handle);
  }
  if (handle instanceof Error) throw handle;
  return handle;
}

/** @param {Cue14Task} task */
function run(task) {
  switch (task.op) {
    case 'version':
      return cue.version();
    case 'render':
      return cue.render(handleOf(task.source), task.parameter, task.context);
    case 'evaluate':
      return cue.evaluate(handleOf(task.source), task.parameter, task.context, task.fields);
    case 'vet':
      return cue.vet(handleOf(task.source), task.properties);
    case 'schema':
      return cue.schema(handleOf(task.source));
    case 'openapi':
      return cue.openapi(handleOf(task.source));
    case 'comments':
      return cue.comments(task.source);
    case 'reads':
      return cue.reads(handleOf(task.source));
    case 'memory':
      return cue.memoryBytes;
    case 'panic':
      return cue.panic();
    case 'crash':
      return cue.crash();
    default:
      throw new Error(`unknown CUE task ${JSON.stringify(/** @type {{ op?: unknown }} */ (task).op)}`);
  }
}

parentPort?.on('message', (/** @type {{ id: number; task: Cue14Task }} */ { id, task }) => {
  try {
    parentPort?.postMessage({ id, ok: true, value: run(task) });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // A recovered Go panic may have left CUE's shared state half-updated: replace the worker too.
    const fatal =
      err instanceof CueRuntimeDiedError ||
      cue.dead ||
      err instanceof WebAssembly.RuntimeError ||
      message.startsWith('the CUE evaluator panicked');
    const errors = err instanceof CueEvalError ? err.errors : undefined;
    // The Go runtime's "out of memory": its WebAssembly memory reached the cap.
    const limit = err instanceof CueRuntimeDiedError && err.outOfMemory ? 'memory' : undefined;
    parentPort?.postMessage({ id, ok: false, error: message, errors, fatal, limit });
  }
});
