import { setMaxListeners } from 'node:events';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { type Clock, realClock, splitKey } from '#kube-core';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import type { RateLimiter } from '../workqueue/rate-limiters.js';
import { RateLimitingQueue } from '../workqueue/rate-limiting-queue.js';
import { requestKey, TerminalError, type Reconciler, type Request, type Result } from './reconciler.js';

export interface ControllerOptions {
  name: string;
  reconciler: Reconciler;
  /** Parallel reconciles (never two for one key). Default 1. */
  workers?: number;
  /** A reconcile running longer is aborted (its signal fires) and counted as failed. Default 60 s; 0 = none. */
  reconcileTimeoutMs?: number;
  rateLimiter?: RateLimiter<string>;
  registry?: Registry;
  logger?: Logger;
  /** Times reconciles (duration, timeout) and the work queue's delays and backoff. Default: the wall clock. */
  clock?: Clock;
}

interface ControllerMetrics {
  total: Counter<'controller' | 'result'>;
  errors: Counter<'controller'>;
  terminal: Counter<'controller'>;
  duration: Histogram<'controller'>;
  active: Gauge<'controller'>;
}
const metricsPerRegistry = new WeakMap<Registry, ControllerMetrics>();

function controllerMetrics(registry: Registry): ControllerMetrics {
  let m = metricsPerRegistry.get(registry);
  if (m) return m;
  const registers = [registry];
  m = {
    total: new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    }),
    errors: new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    }),
    terminal: new Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Total number of terminal reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    }),
    duration: new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    active: new Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Number of currently used workers per controller',
      labelNames: ['controller'],
      registers,
    }),
  };
  metricsPerRegistry.set(registry, m);
  return m;
}

/**
 * N workers draining a rate-limited work queue of request keys into a
 * Reconciler (controller-runtime's internal controller).
 *
 * Retry contract: see Reconciler. Result `requeueAfter` wins over `requeue`;
 * success forgets the key's backoff; an error or `requeue` backs off per key
 * (5 ms doubling to 1000 s) within an overall 10 qps / burst 100 budget.
 */
export class Controller {
  readonly name: string;
  /** Requests waiting or retrying; handlers enqueue here. */
  readonly queue: RateLimitingQueue<string>;
  private readonly log: Logger;
  private readonly metrics?: ControllerMetrics;
  private workers: Promise<void>[] = [];
  /** Aborted to cancel in-flight reconciles when stopping at once. */
  /** Every running reconcile listens to it (as many as workers): no listener-leak warning. */
  private readonly hardStop = stopController();
  /** Set when stopping: workers take no new key (in-flight ones finish unless stopping at once). */
  private stopping = false;
  private started = false;
  private readonly clock: Clock;

  constructor(private readonly options: ControllerOptions) {
    this.name = options.name;
    this.clock = options.clock ?? realClock;
    this.queue = new RateLimitingQueue<string>({
      name: options.name,
      registry: options.registry,
      rateLimiter: options.rateLimiter,
      clock: this.clock,
    });
    this.log = (options.logger ?? silentLogger).child({ controller: options.name });
    if (options.registry) this.metrics = controllerMetrics(options.registry);
  }

  /** Queues a reconcile of `request`; `priority` (default 0, higher first) orders it among the waiting ones. */
  enqueue(request: Request, priority?: number): void {
    this.queue.add(requestKey(request), priority);
  }

  start(): void {
    if (this.started)
      throw new Error(
        `controller "${this.name}" was already started; a stopped controller cannot be restarted`,
      );
    this.started = true;
    const n = Math.max(1, this.options.workers ?? 1);
    for (let i = 0; i < n; i++) this.workers.push(this.worker());
    this.log.info('controller started', { workers: n });
  }

  /**
   * Stops the controller. By default in-flight reconciles finish (their keys
   * are not lost) and idle workers exit; keys still queued are dropped, to be
   * found again by the next leader's initial list. With `immediate`, in-flight
   * reconciles are also told to abort.
   */
  async stop(options: { immediate?: boolean } = {}): Promise<void> {
    this.stopping = true;
    if (options.immediate) this.hardStop.abort(new Error(`controller ${this.name} stopped`));
    this.queue.shutDown();
    await Promise.all(this.workers);
    this.log.info('controller stopped', { immediate: options.immediate ?? false });
  }

  private async worker(): Promise<void> {
    for (;;) {
      const key = await this.queue.get();
      if (key === undefined) return;
      if (this.stopping) {
        this.queue.done(key);
        continue; // drain the queue without reconciling: get() ends once it is empty
      }
      this.metrics?.active.inc({ controller: this.name });
      try {
        await this.process(key);
      } finally {
        this.metrics?.active.dec({ controller: this.name });
        this.queue.done(key);
      }
    }
  }

  private async process(key: string): Promise<void> {
    const request = splitKey(key);
    const log = this.log.child({ key, namespace: request.namespace, name: request.name });
    const timeoutMs = this.options.reconcileTimeoutMs ?? 60_000;
    // Aborted by a hard stop or by the time limit (AbortSignal.timeout, but on the injected
    // clock), whichever comes first. One controller and one listener per reconcile:
    // AbortSignal.any cost more than the rest of this bookkeeping together.
    const abort = new AbortController();
    const stop = this.hardStop.signal;
    const onStop = (): void => abort.abort(stop.reason);
    if (stop.aborted) onStop();
    else stop.addEventListener('abort', onStop, { once: true });
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? this.clock.setTimeout(() => {
            timedOut = true;
            abort.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
          }, timeoutMs)
        : undefined;
    const signal = abort.signal;
    const started = this.clock.now();
    // Retries and requeues keep the priority the key was handed out at (a resync's stays low).
    const priority = this.queue.priorityOf(key);
    let result: Result | void = undefined;
    let failure: { error: unknown } | undefined;
    try {
      // The key stays "processing" until the reconcile settles, even after a timeout: never two at once.
      result = await this.options.reconciler.reconcile(request, { signal, log });
    } catch (error) {
      failure = { error };
    } finally {
      this.clock.clearTimeout(timer);
      stop.removeEventListener('abort', onStop);
    }
    // However the reconciler reacted to its timeout (finished anyway, threw an AbortError), it failed.
    if (timedOut && !(failure?.error instanceof TerminalError)) {
      failure = {
        error: new Error(
          `reconcile did not finish within ${timeoutMs} ms`,
          failure ? { cause: failure.error } : undefined,
        ),
      };
    }
    if (failure) {
      const err = failure.error;
      this.observe(started, 'error');
      if (err instanceof TerminalError) {
        this.metrics?.terminal.inc({ controller: this.name });
        this.queue.forget(key);
        log.error('reconcile failed with a terminal error; not retrying', { error: err });
        return;
      }
      this.metrics?.errors.inc({ controller: this.name });
      log.error('reconcile failed; retrying with backoff', {
        error: err,
        retries: this.queue.numRequeues(key),
      });
      this.queue.addRateLimited(key, priority);
      return;
    }
    if (result?.requeueAfter && result.requeueAfter > 0) {
      this.observe(started, 'requeue_after');
      this.queue.forget(key);
      this.queue.addAfter(key, result.requeueAfter, priority);
    } else if (result?.requeue) {
      this.observe(started, 'requeue');
      this.queue.addRateLimited(key, priority);
    } else {
      this.observe(started, 'success');
      this.queue.forget(key);
    }
  }

  private observe(started: number, result: string): void {
    if (!this.metrics) return;
    this.metrics.total.inc({ controller: this.name, result });
    this.metrics.duration.observe({ controller: this.name }, Math.max(0, this.clock.now() - started) / 1000);
  }
}

function stopController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
