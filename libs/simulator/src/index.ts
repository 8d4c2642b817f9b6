/**
 * The workload simulator: a stand-in, run inside the embedded API server (libs/kube-server, which
 * does not import it: callers register it), for the
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
 * Usage: `startServer({ ..., simulateWorkloads: true, simulation: { readyDelayMs: 50 }, simulator:
 * workloadSimulator })`, or `await registerController(server, workloadSimulator({ readyDelayMs: 50 }))`.
 */
import type { ControllerContext, ControllerEvent, ServerController, StoreInformers } from '#kube-server';
import { SimControllers } from './controllers.js';
import { EndpointsController } from './endpoints.js';
import { recordEvent } from './event-recorder.js';
import { Kubelet } from './kubelet.js';
import { resolveOptions, type SimulatorOptions } from './options.js';
import { reconcilers } from './reconcilers.js';
import { EventRouter, ROUTED_RESOURCES } from './routing.js';
import { errorMessage, type Sim } from './sim.js';

export type { SimulatorOptions } from './options.js';
export { ANNOTATIONS as POD_ANNOTATIONS } from './kubelet.js';
export { UTILIZATION_ANNOTATION } from './hpa.js';

export const SIMULATOR_NAME = 'workload-simulator';

export interface WorkloadSimulator extends ServerController {
  /**
   * Resolves when no change is waiting to be routed and no key is queued or being reconciled right
   * now (timers may still be pending); for tests. With a FakeClock: advance it, then `idle()`, and
   * every reconcile that fell due has run.
   */
  idle(): Promise<void>;
  /** Whether a change or a key is waiting right now (delayed wake-ups aside); for tests. */
  readonly busy: boolean;
}

/** The simulator as an in-process controller for the embedded server (see `registerController`). */
export function workloadSimulator(options: SimulatorOptions = {}): WorkloadSimulator {
  const opts = resolveOptions(options);
  let controllers: SimControllers | undefined;
  let informers: StoreInformers | undefined;
  const memory = new Map<string, unknown>();
  let eventCounter = 0;
  const busy = () => (informers !== undefined && !informers.quiet()) || (controllers?.busy ?? false);

  return {
    name: SIMULATOR_NAME,

    start(ctx: ControllerContext) {
      const log = ctx.log;
      const sim: Sim = {
        api: ctx.api,
        log,
        opts,
        now: () => opts.clock.now(),
        enqueue: (key, afterMs) => controllers?.enqueue(key, afterMs),
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
      controllers = new SimControllers(reconcilers(sim, kubelet, endpoints), log, opts.clock);
      const router = new EventRouter(sim, kubelet, endpoints, memory);
      const route = (event: ControllerEvent) => {
        // Handlers only queue keys; a failure is logged and the next change routes again.
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
      };
      informers = ctx.informers;
      informers.onEveryResource((resource) => {
        const emit = (type: ControllerEvent['type'], object: ControllerEvent['object']) =>
          route({
            type,
            resource,
            namespace: object.metadata.namespace ?? '',
            name: object.metadata.name as string,
            resourceVersion: String(object.metadata.resourceVersion ?? ''),
            object,
          });
        return {
          onAdd: (obj) => emit('ADDED', obj),
          onUpdate: (_old, obj) => emit('MODIFIED', obj),
          onDelete: (obj) => emit('DELETED', obj),
        };
      });
      for (const resource of ROUTED_RESOURCES) informers.ensure(resource);
      router.queueExisting();
      informers.start();
      controllers.start();
      log({
        level: 'info',
        msg: 'workload simulator started (no containers run: pods are simulated)',
        node: opts.nodeName,
        readyDelayMs: opts.readyDelayMs,
      });
    },

    async stop() {
      await controllers?.stop();
      await informers?.stop();
      memory.clear();
    },

    async idle() {
      while (busy()) await new Promise((r) => setImmediate(r));
    },

    get busy() {
      return busy();
    },
  };
}
