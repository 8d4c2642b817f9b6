import type { Worker } from 'node:worker_threads';
import { realClock, type Clock, type TimerHandle } from '#kube-core';

/**
 * The message protocol between the pool and a worker:
 * worker → pool `{ type: 'ready' }` once it can take tasks (after any slow setup);
 * pool → worker `{ id, task }`; worker → pool `{ id, ok: true, value }` or
 * `{ id, ok: false, error, errors?, fatal? }`. `fatal` says the worker is unusable from
 * now on (e.g. its WebAssembly runtime died): the pool replaces it.
 */
export type WorkerReply =
  | { type: 'ready' }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string; errors?: unknown; fatal?: boolean };

export interface WorkerPoolOptions {
  /** How many workers run at most. */
  size: number;
  /** Starts one worker; called lazily, and again for every worker that is replaced. */
  createWorker: () => Worker;
  /** Times the per-task deadline (tests pass a FakeClock). */
  clock?: Clock;
}

/** The task ran past its deadline; its worker was terminated. */
export class WorkerTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`did not finish within ${timeoutMs} ms`);
    this.name = 'WorkerTimeoutError';
  }
}

/** The worker died (crash, exit, fatal runtime error) while running the task. */
export class WorkerCrashError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerCrashError';
  }
}

/** The task itself failed; the worker is fine and stays in the pool. */
export class WorkerTaskError extends Error {
  /** `details`: the worker's structured account of the failure (its reply's `errors`), if any. */
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

interface Job {
  id: number;
  task: unknown;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  /** The running job's deadline; set exactly while `job` is. */
  timer?: TimerHandle;
}

/**
 * N worker threads, a FIFO queue and a hard deadline per task. A worker that
 * times out, crashes or reports a fatal error is terminated and replaced,
 * never reused. The deadline starts when a ready worker takes the task, so a
 * worker's start-up never counts against a task. Idle workers are unref'd:
 * they keep no process alive, yet stay warm for the next task.
 */
export class WorkerPool<TTask, TResult> {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers terminated after a timeout or crash (for tests and metrics). */
  replaced = 0;
  private readonly clock: Clock;

  constructor(private readonly options: WorkerPoolOptions) {
    if (!(options.size >= 1)) throw new RangeError(`pool size must be at least 1, got ${options.size}`);
    this.clock = options.clock ?? realClock;
  }

  run(task: TTask, timeoutMs: number): Promise<TResult> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise<TResult>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        task,
        timeoutMs,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.dispatch();
    });
  }

  /** Starts one worker now, if none is running or starting, so its setup overlaps the caller's. */
  warm(): void {
    if (!this.closed && this.slots.size === 0) this.spawn();
  }

  get stats(): { workers: number; busy: number; queued: number; replaced: number } {
    const busy = [...this.slots].filter((s) => s.job).length;
    return { workers: this.slots.size, busy, queued: this.queue.length, replaced: this.replaced };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the worker pool was closed'));
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) {
      this.clock.clearTimeout(slot.timer);
      slot.job?.reject(new Error('the worker pool was closed'));
    }
    await Promise.all(slots.map((s) => this.stop(s)));
  }

  /**
   * Terminates a worker once it has started. Node 20 can lose a worker terminated while it
   * is still loading its modules: its 'exit' never comes, so awaiting `terminate()` never
   * settles and a one-shot command ends with Node's exit code 13 instead of its own (seen
   * in CI's `oam render` test, and in one run in seven of a script doing the same under
   * load). A starting worker is let finish
   * starting (it reports `ready`, or dies) and is then terminated the usual way.
   */
  private async stop(slot: Slot): Promise<void> {
    if (!slot.ready) {
      slot.worker.ref(); // an early worker is unref'd: keep the process alive while it starts
      await new Promise<void>((resolve) => {
        slot.worker.once('message', () => resolve());
        slot.worker.once('exit', () => resolve());
      });
    }
    await slot.worker.terminate();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.ready && !slot.job) this.start(slot, this.queue.shift()!);
    }
    const starting = [...this.slots].filter((s) => !s.ready).length;
    if (this.queue.length > starting && this.slots.size < this.options.size) this.spawn();
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = this.clock.setTimeout(
      () => this.retire(slot, new WorkerTimeoutError(job.timeoutMs)),
      job.timeoutMs,
    );
    slot.worker.postMessage({ id: job.id, task: job.task });
  }

  private spawn(): void {
    const slot: Slot = { worker: this.options.createWorker(), ready: false };
    this.slots.add(slot);
    slot.worker.on('message', (msg: WorkerReply) => this.onMessage(slot, msg));
    slot.worker.on('error', (err) =>
      this.retire(slot, new WorkerCrashError(`worker failed: ${err.message}`)),
    );
    slot.worker.on('exit', (code) =>
      this.retire(slot, new WorkerCrashError(`worker exited with code ${code}`)),
    );
  }

  private onMessage(slot: Slot, msg: WorkerReply): void {
    if ('type' in msg) {
      slot.ready = true;
      if (this.queue.length === 0) slot.worker.unref();
      this.dispatch();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== msg.id) return; // a late reply for a job that already timed out
    this.clock.clearTimeout(slot.timer);
    slot.job = undefined;
    if (msg.ok) job.resolve(msg.value);
    else if (msg.fatal) {
      job.reject(new WorkerCrashError(msg.error));
      this.retire(slot);
      return;
    } else job.reject(new WorkerTaskError(msg.error, msg.errors));
    if (this.queue.length === 0) slot.worker.unref();
    this.dispatch();
  }

  /** Takes a worker out of the pool for good, failing its job, and starts a fresh one. */
  private retire(slot: Slot, reason?: Error): void {
    if (!this.slots.delete(slot)) return;
    this.clock.clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    slot.worker.removeAllListeners('message');
    // terminate() resolves once the thread is gone; an error here means it already was.
    slot.worker.terminate().catch(() => undefined);
    this.replaced++;
    if (job && reason) job.reject(reason);
    if (this.closed) return;
    if (!slot.ready) {
      // It died while starting: starting another would likely fail the same way, so report it.
      const waiting = this.queue.splice(0);
      const cause = reason ?? new WorkerCrashError('worker failed while starting');
      for (const w of waiting) w.reject(new WorkerCrashError(`worker could not start: ${cause.message}`));
      return;
    }
    this.spawn(); // keep the pool warm
    this.dispatch();
  }
}
