/** Test support: an embedded server on a random port with the workload simulator registered. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { describeValue, eventually, FakeClock, type Clock } from '#kube-core';
import { registerController, serverIdle, startServer, type RunningServer } from '#kube-server';
import { workloadSimulator, type SimulatorOptions, type WorkloadSimulator } from './index.js';

export { eventually } from '#kube-core';

export interface SimulatedCluster {
  server: RunningServer;
  simulator: WorkloadSimulator;
  /** The simulator's clock: a FakeClock unless the test passed another one. */
  clock: Clock;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  batch: k8s.BatchV1Api;
  autoscaling: k8s.AutoscalingV2Api;
  logs: Array<Record<string, unknown>>;
  /** Lets work already queued finish: the simulator's reconciles and the server's garbage collection, until both are idle. */
  settle(): Promise<void>;
  /** FakeClock only: moves time forward by `ms`, firing timers in order and settling after each instant. */
  step(ms: number): Promise<void>;
  /**
   * Waits until `check` returns something other than undefined/false. With a FakeClock it settles,
   * checks, and steps to the next timer, over and over: the check sees every quiescent state in
   * order, and fails (with the last value seen) once nothing is left to fire or `maxMs` of
   * simulated time have passed. With another clock it polls (`eventually`).
   */
  until<T>(check: () => Promise<T | undefined | false>, what: string, maxMs?: number): Promise<T>;
  stop(): Promise<void>;
}

/**
 * A server and a simulator that runs on a FakeClock by default (pass `clock` for another): time moves
 * only when the test steps it, so what a test sees does not depend on how busy the machine is.
 */
export async function startSimulatedCluster(options: SimulatorOptions = {}): Promise<SimulatedCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-sim-'));
  const logs: Array<Record<string, unknown>> = [];
  const server = await startServer({ port: 0, stateDir: dir, logger: (e) => logs.push(e) });
  // Starts at the wall clock's time, so the server's timestamps (creationTimestamp) and the simulator's agree.
  const clock = options.clock ?? new FakeClock(Date.now());
  const simulator = workloadSimulator({ readyDelayMs: 30, ...options, clock });
  await registerController(server, simulator);
  const kc = server.kubeConfig;
  const fake = clock instanceof FakeClock ? clock : undefined;
  const needFake = (what: string): FakeClock => {
    if (!fake) throw new Error(`${what} needs a FakeClock`);
    return fake;
  };

  const settle = async () => {
    // The simulator's writes may queue garbage collection, whose deletes queue reconciles: until neither moves.
    for (let round = 0; round < 1000; round++) {
      await simulator.idle();
      await serverIdle(server);
      await new Promise((r) => setImmediate(r));
      if (!simulator.busy) return;
    }
    throw new Error('the simulator never settled (a reconcile loop?)');
  };

  const step = async (ms: number) => {
    const c = needFake('step');
    const end = c.now() + Math.max(0, ms);
    await settle();
    for (;;) {
      const next = c.nextDelay();
      if (next === undefined || c.now() + next > end) break;
      await c.advance(next);
      await settle();
    }
    await c.advance(end - c.now());
    await settle();
  };

  const until = async <T>(check: () => Promise<T | undefined | false>, what: string, maxMs = 30 * 60_000) => {
    if (!fake) return eventually(check, what);
    const end = fake.now() + maxMs;
    let last: unknown;
    for (;;) {
      await settle();
      try {
        const value = await check();
        if (value !== undefined && value !== false) return value;
        last = value;
      } catch (err) {
        last = err;
      }
      const next = fake.nextDelay();
      if (next === undefined || fake.now() + next > end) {
        const at = next === undefined ? 'no timer left to fire' : `nothing due within ${maxMs} ms`;
        throw new Error(`${what}: never happened (${at}); last: ${describeValue(last)}`);
      }
      await fake.advance(next);
    }
  };

  return {
    server,
    simulator,
    clock,
    core: kc.makeApiClient(k8s.CoreV1Api),
    apps: kc.makeApiClient(k8s.AppsV1Api),
    batch: kc.makeApiClient(k8s.BatchV1Api),
    autoscaling: kc.makeApiClient(k8s.AutoscalingV2Api),
    logs,
    settle,
    step,
    until,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const labelsOf = (selector: Record<string, string>) =>
  Object.entries(selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
