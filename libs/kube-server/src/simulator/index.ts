/**
 * The workload simulator: a stand-in, inside the embedded API server, for the
 * parts of kube-controller-manager, the scheduler and a kubelet that make
 * workloads come alive. No container runs. It is clearly a simulation: Pods run
 * on one node named "oam-local-simulated" (by default), their container IDs
 * start with `simulated://`, and the knobs are `simulation.oam.dev/*` annotations.
 *
 * Controllers: Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob,
 * HorizontalPodAutoscaler (simulated metrics), a PVC binder, the endpoints and
 * EndpointSlice controllers (Services' Endpoints from the pods' simulated IPs),
 * and the scheduler+kubelet, which also registers the node as a Node object
 * (annotated `simulation.oam.dev/simulated: "true"`, like the Pods it runs).
 * Resources the server does not serve (nodes, endpointslices) are skipped with
 * one log line. Each is level-triggered: events only queue object keys;
 * a reconcile reads the current state and acts on the difference.
 *
 * Usage: `await registerController(server, workloadSimulator({ readyDelayMs: 50 }))`.
 */
import type { ControllerContext, ServerController } from '../controllers/in-process.js';
import { EndpointsController } from './endpoints.js';
import { recordEvent } from './event-recorder.js';
import { Kubelet } from './kubelet.js';
import { resolveOptions, type SimulatorOptions } from './options.js';
import { reconcilers } from './reconcilers.js';
import { EventRouter } from './routing.js';
import { errorMessage, splitQueueKey, type Sim } from './sim.js';
import { WorkQueue } from './work-queue.js';

export type { SimulatorOptions } from './options.js';
export { ANNOTATIONS as POD_ANNOTATIONS } from './kubelet.js';
export { UTILIZATION_ANNOTATION } from './hpa.js';

export const SIMULATOR_NAME = 'workload-simulator';

export interface WorkloadSimulator extends ServerController {
  /**
   * Resolves when no key is queued right now (timers may still be pending); for tests. With a
   * FakeClock: advance it, then `idle()`, and every reconcile that fell due has run.
   */
  idle(): Promise<void>;
  /** Whether a key is queued right now (delayed wake-ups aside); for tests. */
  readonly busy: boolean;
}

/** The simulator as an in-process controller for the embedded server (see `registerController`). */
export function workloadSimulator(options: SimulatorOptions = {}): WorkloadSimulator {
  const opts = resolveOptions(options);
  let queue: WorkQueue | undefined;
  let unsubscribe: (() => void) | undefined;
  const memory = new Map<string, unknown>();
  let eventCounter = 0;

  return {
    name: SIMULATOR_NAME,

    start(ctx: ControllerContext) {
      const log = ctx.log;
      const sim: Sim = {
        api: ctx.api,
        log,
        opts,
        now: () => opts.clock.now(),
        enqueue: (key, afterMs) => (afterMs && afterMs > 0 ? queue?.addAfter(key, afterMs) : queue?.add(key)),
        memory: <T>(name: string, init: () => T) => {
          if (!memory.has(name)) memory.set(name, init());
          return memory.get(name) as T;
        },
        event: (involved, type, reason, message, component) => {
          if (!opts.events) return;
          recordEvent(sim, involved, type, reason, message, component, eventCounter++);
        },
      };
      const kubelet = new Kubelet(sim);
      const endpoints = new EndpointsController(sim);
      const handlers = reconcilers(sim, kubelet, endpoints);
      queue = new WorkQueue(
        (key) => {
          const { kind, namespace, name } = splitQueueKey(key);
          handlers[kind]?.(namespace, name);
        },
        log,
        opts.clock,
      );
      const router = new EventRouter(sim, queue, kubelet, endpoints, memory);
      unsubscribe = ctx.subscribe((event) => {
        // Listeners run inside the writer's call: only queue keys here, and never throw.
        try {
          router.route(event);
        } catch (err) {
          log({
            level: 'error',
            msg: 'workload simulator could not route an event',
            resource: event.resource,
            namespace: event.namespace,
            name: event.name,
            error: errorMessage(err),
          });
        }
      });
      router.queueExisting();
      log({
        level: 'info',
        msg: 'workload simulator started (no containers run: pods are simulated)',
        node: opts.nodeName,
        readyDelayMs: opts.readyDelayMs,
      });
    },

    stop() {
      unsubscribe?.();
      unsubscribe = undefined;
      queue?.stop();
      memory.clear();
    },

    async idle() {
      await queue?.idle();
    },

    get busy() {
      return queue?.busy ?? false;
    },
  };
}
