/* global WebAssembly */
// A worker thread hosting one cue-wasm instance (the official CUE v0.4.3 compiled to
// WebAssembly). Plain JS because Node 20 cannot start a .ts file in a worker.
// It speaks the protocol of ../worker-pool.ts.
import { parentPort } from 'node:worker_threads';
import { init } from 'cue-wasm';

/** @typedef {{ op: 'json' | 'openapi'; source: string }} CueTask */

// Loading the WebAssembly module takes about 250 ms: once per worker, before it reports ready.
const cue = await init();
parentPort.postMessage({ type: 'ready' });

parentPort.on('message', (/** @type {{ id: number; task: CueTask }} */ { id, task }) => {
  try {
    const value = task.op === 'openapi' ? cue.toOpenAPI(task.source) : cue.toJSON(task.source);
    parentPort.postMessage({ id, ok: true, value });
  } catch (err) {
    // cue-wasm throws CUE's error text as a plain string; anything else means the runtime broke.
    const message = typeof err === 'string' ? err : String(err?.message ?? err);
    parentPort.postMessage({ id, ok: false, error: message, fatal: isFatal(err, message) });
  }
});

/**
 * After the Go runtime inside dies (out of memory, a panic) every later call fails:
 * the pool must replace this worker.
 * @param {unknown} err
 * @param {string} message
 */
function isFatal(err, message) {
  if (err instanceof WebAssembly.RuntimeError) return true;
  return typeof err !== 'string' && /exited|out of memory|unreachable|not a function/i.test(message);
}
