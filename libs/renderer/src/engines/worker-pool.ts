import type { Worker } from 'node:worker_threads';
import { realClock, threadCpuMs, type Clock, type TimerHandle } from '#kube-core';
import { osThreadPriority, type ThreadPriority } from './thread-priority.js';
import { formatBytes, formatDuration } from './limit-format.js';

/**
 * The message protocol between the pool and a worker:
 * worker → pool `{ type: 'ready', tid? }` once it can take tasks (after any slow setup), with
 * its Linux thread id when it could read it (the pool reads that thread's CPU time);
 * pool → worker `{ id, task }`; worker → pool `{ id, ok: true, value }` or
 * `{ id, ok: false, error, errors?, fatal?, limit? }`. `fatal` says the worker is unusable from
 * now on (e.g. its WebAssembly runtime died): the pool replaces it; `limit: 'memory'` says it
 * died of its memory cap.
 */
export type WorkerReply =
  | { type: 'ready'; tid?: number }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string; errors?: unknown; fatal?: boolean; limit?: 'memory' };

export interface WorkerPoolOptions {
  /**
   * How many workers one tenant may hold. The pool starts one more (lazily, when a tenant
   * holding none waits while others hold them all), so no tenant ever holds every worker.
   */
  size: number;
  /** Starts one worker; called lazily, and again for every worker that is replaced. */
  createWorker: () => Worker;
  /** Times deadlines and CPU polls (tests pass a FakeClock). */
  clock?: Clock;
  /** Most CPU time one task may use, in ms (default: no limit). */
  cpuLimitMs?: number;
  /** How often a busy worker's CPU time is read (default 250 ms). */
  cpuPollMs?: number;
  /** A thread's CPU time so far in ms, undefined if unreadable (default: from /proc; tests inject one). */
  cpuTimeOf?: (tid: number) => number | undefined;
  /**
   * A task past this much CPU time runs at the least scheduling priority until it ends, so a
   * runaway on its way to the limit leaves the CPU to everyone else's templates (default: a
   * fifth of `cpuLimitMs`; 200 volumes of the storage trait, the costliest real case measured,
   * take about 3 s).
   */
  lowPriorityAfterMs?: number;
  /** How a worker thread's priority is changed (default: setpriority(2); tests inject one). */
  priority?: ThreadPriority;
  /** The cap the workers enforce on their memory, in bytes: named in the error when one dies of it. */
  memoryLimitBytes?: number;
  /** Where the one notice that CPU time cannot be read goes (default: a process warning). */
  warn?: (message: string) => void;
}

export interface RunOptions {
  /** Wall-clock backstop for the task, in ms. */
  timeoutMs: number;
  /** Whose task it is (the Application's namespace): tenants take turns at the workers. */
  tenant?: string;
  /** Aborting drops a queued task, or terminates (and replaces) the worker running it. */
  signal?: AbortSignal;
}

/** The task ran past its deadline; its worker was terminated. */
export class WorkerTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`did not finish within ${timeoutMs} ms`);
    this.name = 'WorkerTimeoutError';
  }
}

/** The task used more CPU time or memory than one evaluation may; its worker was replaced. */
export class WorkerLimitError extends Error {
  /** `amount`: the limit, ms of CPU time or bytes of memory (undefined: not known here). */
  constructor(
    readonly limit: 'cpu' | 'memory',
    readonly amount: number | undefined,
  ) {
    const what = limit === 'cpu' ? 'cpu time limit' : 'memory limit';
    const size =
      amount === undefined ? '' : ` ${limit === 'cpu' ? formatDuration(amount) : formatBytes(amount)}`;
    super(`${what}${size} exceeded`);
    this.name = 'WorkerLimitError';
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
  tenant: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The worker's thread id, when it could read it: its CPU time is read by it. */
  tid?: number;
  job?: Job;
  /** The running job's deadline; set exactly while `job` is. */
  timer?: TimerHandle;
  /** The running job's next CPU-time check (or, without /proc, its CPU-limit deadline). */
  cpuTimer?: TimerHandle;
  /** The thread runs at the least priority (its job passed `lowPriorityAfterMs`): restored before its next job. */
  lowered?: boolean;
}

/** Said once per process: a limit measured by the wall clock fails slow templates on a busy machine. */
let saidNoCpuTime = false;

/**
 * Worker threads, a queue per tenant taken in turns, and per task a CPU-time limit, a
 * wall-clock deadline and an abort signal. A worker that passes a limit, crashes, reports a
 * fatal error or is aborted is terminated and replaced, never reused. Limits start when a
 * ready worker takes the task, so a worker's start-up never counts against a task. Idle
 * workers are unref'd: they keep no process alive, yet stay warm for the next task.
 */
export class WorkerPool<TTask, TResult> {
  private readonly slots = new Set<Slot>();
  /** Queued jobs by tenant, in turn order: the next tenant to be served comes first. */
  private readonly queues = new Map<string, Job[]>();
  private nextId = 1;
  private closed = false;
  /** Workers terminated after a limit, crash or abort (for tests and metrics). */
  replaced = 0;
  private readonly clock: Clock;
  private readonly cpuTimeOf: (tid: number) => number | undefined;
  private readonly priority: ThreadPriority;

  constructor(private readonly options: WorkerPoolOptions) {
    if (!(options.size >= 1)) throw new RangeError(`pool size must be at least 1, got ${options.size}`);
    this.clock = options.clock ?? realClock;
    this.cpuTimeOf = options.cpuTimeOf ?? threadCpuMs;
    this.priority = options.priority ?? osThreadPriority;
  }

  run(task: TTask, options: RunOptions): Promise<TResult> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<TResult>((resolve, reject) => {
      const onAbort = () => this.abort(job, abortReason(signal!));
      const settled = () => signal?.removeEventListener('abort', onAbort);
      const job: Job = {
        id: this.nextId++,
        task,
        timeoutMs: options.timeoutMs,
        tenant: options.tenant ?? '',
        resolve: (value) => {
          settled();
          resolve(value as TResult);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const queue = this.queues.get(job.tenant);
      if (queue) queue.push(job);
      else this.queues.set(job.tenant, [job]);
      this.dispatch();
    });
  }

  /** Starts one worker now, if none is running or starting, so its setup overlaps the caller's. */
  warm(): void {
    if (!this.closed && this.slots.size === 0) this.spawn();
  }

  get stats(): { workers: number; busy: number; queued: number; replaced: number } {
    const busy = [...this.slots].filter((s) => s.job).length;
    return { workers: this.slots.size, busy, queued: this.queuedCount(), replaced: this.replaced };
  }

  /** Running tasks by tenant. */
  get busyByTenant(): Map<string, number> {
    const out = new Map<string, number>();
    for (const slot of this.slots)
      if (slot.job) out.set(slot.job.tenant, (out.get(slot.job.tenant) ?? 0) + 1);
    return out;
  }

  async close(): Promise<void> {
    this.closed = true;
    const queued = [...this.queues.values()].flat();
    this.queues.clear();
    for (const job of queued) job.reject(new Error('the worker pool was closed'));
    const slots = [...this.slots];
    this.slots.clear();
    for (const slot of slots) {
      this.clearTimers(slot);
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

  private queuedCount(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  /** A queued job dropped, a running one's worker terminated. */
  private abort(job: Job, reason: Error): void {
    const queue = this.queues.get(job.tenant);
    const at = queue?.indexOf(job) ?? -1;
    if (queue && at >= 0) {
      queue.splice(at, 1);
      if (queue.length === 0) this.queues.delete(job.tenant);
      job.reject(reason);
      return;
    }
    for (const slot of this.slots) if (slot.job === job) this.retire(slot, reason);
  }

  /**
   * The next job to start: tenants take turns (the one served goes to the back), and a
   * tenant already holding `size` workers waits, so another can always start.
   */
  private takeNext(): Job | undefined {
    const busy = this.busyByTenant;
    for (const [tenant, queue] of this.queues) {
      if ((busy.get(tenant) ?? 0) >= this.options.size) continue;
      const job = queue.shift()!;
      this.queues.delete(tenant);
      if (queue.length > 0) this.queues.set(tenant, queue); // to the back of the turn order
      return job;
    }
    return undefined;
  }

  /** Queued jobs that could start now if a worker were free (each tenant up to its share). */
  private startable(): number {
    const busy = this.busyByTenant;
    let n = 0;
    for (const [tenant, queue] of this.queues)
      n += Math.min(queue.length, Math.max(0, this.options.size - (busy.get(tenant) ?? 0)));
    return n;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.job) continue;
      const job = this.takeNext();
      if (!job) break;
      this.start(slot, job);
    }
    // One worker more than a tenant may hold: the reserve lets a tenant holding none start.
    let starting = [...this.slots].filter((s) => !s.ready).length;
    for (let want = this.startable(); want > starting && this.slots.size < this.options.size + 1; starting++)
      this.spawn();
  }

  private start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.timer = this.clock.setTimeout(
      () => this.retire(slot, new WorkerTimeoutError(job.timeoutMs)),
      job.timeoutMs,
    );
    this.limitCpu(slot);
    slot.worker.postMessage({ id: job.id, task: job.task });
  }

  /** Reads the worker's own CPU time every `cpuPollMs`; without it, the limit is wall time. */
  private limitCpu(slot: Slot): void {
    const limit = this.options.cpuLimitMs;
    if (limit === undefined) return;
    const over = () => this.retire(slot, new WorkerLimitError('cpu', limit));
    const startedAt = slot.tid === undefined ? undefined : this.cpuTimeOf(slot.tid);
    if (startedAt === undefined) {
      this.sayNoCpuTime();
      slot.cpuTimer = this.clock.setTimeout(over, limit);
      return;
    }
    const poll = this.options.cpuPollMs ?? 250;
    const lowAfter = this.options.lowPriorityAfterMs ?? limit / 5;
    const check = () => {
      const now = this.cpuTimeOf(slot.tid!);
      if (now !== undefined && now - startedAt > limit) return over();
      if (now !== undefined && now - startedAt > lowAfter && !slot.lowered)
        slot.lowered = this.priority.lower(slot.tid!);
      slot.cpuTimer = this.clock.setTimeout(check, poll);
    };
    slot.cpuTimer = this.clock.setTimeout(check, poll);
  }

  private sayNoCpuTime(): void {
    if (saidNoCpuTime) return;
    saidNoCpuTime = true;
    const warn = this.options.warn ?? ((m: string) => process.emitWarning(m));
    warn(
      "a worker thread's CPU time cannot be read here (no /proc/self/task/<tid>/stat): template evaluations are limited by wall time instead",
    );
  }

  private clearTimers(slot: Slot): void {
    this.clock.clearTimeout(slot.timer);
    this.clock.clearTimeout(slot.cpuTimer);
    slot.timer = slot.cpuTimer = undefined;
  }

  private spawn(): void {
    const slot: Slot = { worker: this.options.createWorker(), ready: false };
    this.slots.add(slot);
    slot.worker.on('message', (msg: WorkerReply) => this.onMessage(slot, msg));
    slot.worker.on('error', (err: Error & { code?: string }) =>
      this.retire(
        slot,
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new WorkerLimitError('memory', this.options.memoryLimitBytes)
          : new WorkerCrashError(`worker failed: ${err.message}`),
      ),
    );
    slot.worker.on('exit', (code) =>
      this.retire(slot, new WorkerCrashError(`worker exited with code ${code}`)),
    );
  }

  private onMessage(slot: Slot, msg: WorkerReply): void {
    if ('type' in msg) {
      slot.ready = true;
      slot.tid = msg.tid;
      if (this.queuedCount() === 0) slot.worker.unref();
      this.dispatch();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== msg.id) return; // a late reply for a job that already timed out
    this.clearTimers(slot);
    slot.job = undefined;
    if (msg.ok) job.resolve(msg.value);
    else if (msg.fatal) {
      job.reject(
        msg.limit === 'memory'
          ? new WorkerLimitError('memory', this.options.memoryLimitBytes)
          : new WorkerCrashError(msg.error),
      );
      this.retire(slot);
      return;
    } else job.reject(new WorkerTaskError(msg.error, msg.errors));
    // A thread left at the least priority would slow every later template: restore it, or
    // where raising a priority is not allowed, replace it with a fresh one.
    if (slot.lowered) {
      slot.lowered = !this.priority.restore(slot.tid!);
      if (slot.lowered) return this.retire(slot);
    }
    if (this.queuedCount() === 0) slot.worker.unref();
    this.dispatch();
  }

  /** Takes a worker out of the pool for good, failing its job, and starts a fresh one. */
  private retire(slot: Slot, reason?: Error): void {
    if (!this.slots.delete(slot)) return;
    this.clearTimers(slot);
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
      const waiting = [...this.queues.values()].flat();
      this.queues.clear();
      const cause = reason ?? new WorkerCrashError('worker failed while starting');
      for (const w of waiting) w.reject(new WorkerCrashError(`worker could not start: ${cause.message}`));
      return;
    }
    this.spawn(); // keep the pool warm
    this.dispatch();
  }
}

function abortReason(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  return Object.assign(new Error('the evaluation was aborted'), { name: 'AbortError' });
}

/** An abort (the caller stopped the evaluation): not the template's failure, never reported as one. */
export function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError');
}
