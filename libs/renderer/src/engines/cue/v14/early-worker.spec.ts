import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { createCue14Pool } from './cue14-pool.js';
import { EARLY_WORKER_MEMORY_LIMIT_BYTES, startCueWorker, takeEarlyCueWorker } from './early-worker.js';

describe('a CUE worker started early (oam render starts it before the renderer loads)', () => {
  it('is taken by the first pool, which gets the ready it reported before', async () => {
    const early = startCueWorker();
    expect(startCueWorker()).toBe(early); // idempotent
    await once(early, 'message'); // its `ready`, before any pool listens
    const started: Worker[] = [];
    const pool = createCue14Pool({
      timeoutMs: 60_000,
      size: 1,
      memoryLimitBytes: EARLY_WORKER_MEMORY_LIMIT_BYTES, // the cap it was started with
      onWorker: (w) => started.push(w),
    });
    try {
      expect((await pool.version()).cue).toBe('v0.14.1');
      expect(started).toEqual([early]);
      expect(takeEarlyCueWorker()).toBeUndefined(); // taken once
    } finally {
      await pool.close();
    }
  });

  it('is not taken by a pool with worker options of its own (tests capturing its output)', async () => {
    const early = startCueWorker();
    const pool = createCue14Pool({ timeoutMs: 60_000, size: 1, workerOptions: { stdout: true } });
    try {
      await pool.version();
      expect(takeEarlyCueWorker()).toBe(early);
    } finally {
      await pool.close();
      await early.terminate();
    }
  });

  it('is not taken by a pool with another memory cap (its WebAssembly memory is capped at start)', async () => {
    const early = startCueWorker();
    const pool = createCue14Pool({
      timeoutMs: 60_000,
      size: 1,
      memoryLimitBytes: 2 * EARLY_WORKER_MEMORY_LIMIT_BYTES,
    });
    try {
      await pool.version();
      expect(takeEarlyCueWorker()).toBe(early);
    } finally {
      await pool.close();
      await early.terminate();
    }
  });
});
