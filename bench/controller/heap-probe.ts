import { isMainThread } from 'node:worker_threads';

/**
 * Loaded into the benchmarked controller (`node --expose-gc --import
 * heap-probe.js`; the bench spawns it with an IPC channel): on the message
 * `heap`, a full garbage collection, then the main thread's heap used sent
 * back. The bench's heap figures are then live memory, not whatever garbage
 * the collector had not reached yet. Nothing of it is in the controller.
 */
const gc = (globalThis as { gc?: () => void }).gc;
if (isMainThread && process.send && gc) {
  process.on('message', (m) => {
    if (m !== 'heap') return;
    gc();
    // Again once finalizers (FinalizationRegistry callbacks, run as tasks) had their turn.
    setImmediate(() => {
      gc();
      process.send!({ heapUsed: process.memoryUsage().heapUsed });
    });
  });
  // The channel alone must not keep the controller running.
  process.channel?.unref();
}
