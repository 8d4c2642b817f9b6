import { Controller, requestKey, type Request } from '#runtime';
import { type Clock } from '#kube-core';
import { runtimeLogger, type Logger } from '#kube-server';
import type { Reconcile } from './reconcilers.js';
import { RetryPolicy } from './retries.js';
import { keyOf, splitQueueKey } from './sim.js';

/**
 * The simulated controllers on libs/runtime: one runtime Controller (its
 * rate-limited work queue and one worker) per queue kind ("deployment",
 * "pod", ...), reconciling `namespace/name` with that kind's function.
 * Reconciles are synchronous store work, so one never interleaves with
 * another; delays (`enqueue(key, ms)`) run on the injected clock.
 */
export class SimControllers {
  private readonly controllers = new Map<string, Controller>();
  private readonly retries: RetryPolicy;
  private stopped = false;

  constructor(reconcilers: Record<string, Reconcile>, log: Logger, clock: Clock) {
    this.retries = new RetryPolicy(log);
    for (const [kind, reconcile] of Object.entries(reconcilers)) {
      const controller: Controller = new Controller({
        name: `simulated-${kind}`,
        reconcileTimeoutMs: 0,
        logger: runtimeLogger(log),
        clock,
        reconciler: {
          reconcile: async (request) => {
            const key = keyOf(kind, request.namespace, request.name);
            try {
              reconcile(request.namespace, request.name);
              this.retries.succeeded(key);
            } catch (err) {
              const delay = this.retries.failed(key, err);
              if (delay > 0) return { requeueAfter: delay };
              controller.enqueue(request); // at once: it runs again when this reconcile is done
            }
          },
        },
      });
      this.controllers.set(kind, controller);
    }
  }

  /** Queues a key ("<kind>/<namespace>/<name>") now, or after `afterMs`; the earliest pending wake-up wins. */
  enqueue(key: string, afterMs = 0): void {
    if (this.stopped) return;
    const { kind, namespace, name } = splitQueueKey(key);
    const controller = this.controllers.get(kind);
    if (!controller) return;
    const request: Request = { namespace, name };
    if (afterMs > 0) controller.queue.addAfter(requestKey(request), afterMs);
    else controller.enqueue(request);
  }

  start(): void {
    for (const c of this.controllers.values()) c.start();
  }

  /** Whether a key is queued or being reconciled right now (delayed wake-ups aside). */
  get busy(): boolean {
    if (this.stopped) return false;
    for (const c of this.controllers.values()) if (c.queue.len() || c.queue.processingCount()) return true;
    return false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.controllers.values()].map((c) => c.stop()));
    this.retries.clear();
  }
}
