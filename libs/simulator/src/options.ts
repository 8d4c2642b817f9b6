/** The simulator's options and the annotations that mark and tune what it simulates. */
import { realClock, type Clock } from '#kube-core';

/** Marks what the simulator made up (the Node, Pods it runs): `simulation.oam.dev/simulated: "true"`. */
export const SIMULATED_ANNOTATION = 'simulation.oam.dev/simulated';

/** Where the simulator's own knobs live (annotations a user or a test may set). */
export const SIM_PREFIX = 'simulation.oam.dev/';

export interface SimulatorOptions {
  /** Time from a Pod's scheduling to Running and Ready (default 1000 ms). */
  readyDelayMs?: number;
  /** Time a run-to-completion Pod (restartPolicy Never/OnFailure) runs before it exits (default: readyDelayMs). */
  runDurationMs?: number;
  /** The one simulated node every Pod lands on (default "oam-local-simulated"). */
  nodeName?: string;
  /** Record core/v1 Events the way the real controllers and kubelet do (default true). */
  events?: boolean;
  /**
   * Where time comes from: every delay (start and run durations, back-offs, retries, the HPA's
   * stabilization window, CronJob schedules) is a timer on this clock and every timestamp it
   * writes reads it. Default: the wall clock; tests pass a FakeClock and step it.
   */
  clock?: Clock;
}

export type ResolvedOptions = Required<SimulatorOptions>;

export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  const readyDelayMs = Math.max(0, options.readyDelayMs ?? 1000);
  return {
    readyDelayMs,
    runDurationMs: Math.max(0, options.runDurationMs ?? readyDelayMs),
    nodeName: options.nodeName ?? 'oam-local-simulated',
    events: options.events ?? true,
    clock: options.clock ?? realClock,
  };
}
