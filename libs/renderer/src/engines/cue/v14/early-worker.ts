import { Worker } from 'node:worker_threads';
import { DEFAULT_EVAL_MEMORY_LIMIT_BYTES } from '../../limits.js';

export const CUE14_WORKER_FILE = new URL('./cue14.worker.mjs', import.meta.url);

/** The memory cap of the early worker, which starts before any flag is read: the default's. */
export const EARLY_WORKER_MEMORY_LIMIT_BYTES = DEFAULT_EVAL_MEMORY_LIMIT_BYTES;

type WorkerEvent = 'message' | 'error' | 'exit';
const EVENTS: WorkerEvent[] = ['message', 'error', 'exit'];

let early:
  { worker: Worker; seen: [WorkerEvent, unknown][]; listeners: ((x: unknown) => void)[] } | undefined;

/**
 * Starts one CUE worker thread now; the first CUE pool this process creates
 * (without worker options) takes it. For a one-shot process (`oam render`):
 * the worker loads the CUE module while the main thread is still loading the
 * renderer's own modules, instead of after. Idempotent; the thread keeps no
 * process alive until a pool takes it.
 */
export function startCueWorker(): Worker {
  if (early) return early.worker;
  const worker = new Worker(CUE14_WORKER_FILE, {
    workerData: { memoryLimitBytes: EARLY_WORKER_MEMORY_LIMIT_BYTES },
  });
  const seen: [WorkerEvent, unknown][] = [];
  const listeners = EVENTS.map((name) => {
    const keep = (x: unknown) => void seen.push([name, x]);
    worker.on(name, keep);
    return keep;
  });
  worker.unref();
  early = { worker, seen, listeners };
  return worker;
}

/**
 * The worker `startCueWorker` started, once: what it reported before (its
 * `ready`, or its death) is replayed to the listeners the taker attaches in
 * the same tick.
 */
export function takeEarlyCueWorker(): Worker | undefined {
  const taken = early;
  early = undefined;
  if (!taken) return undefined;
  EVENTS.forEach((name, i) => taken.worker.off(name, taken.listeners[i]));
  queueMicrotask(() => {
    for (const [name, x] of taken.seen) taken.worker.emit(name, x);
  });
  return taken.worker;
}
