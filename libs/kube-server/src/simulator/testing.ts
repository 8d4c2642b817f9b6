/** Test support: an embedded server on a random port with the workload simulator registered. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { registerController, startServer, type RunningServer } from '../server.js';
import { workloadSimulator, type SimulatorOptions, type WorkloadSimulator } from './index.js';

export interface SimulatedCluster {
  server: RunningServer;
  simulator: WorkloadSimulator;
  core: k8s.CoreV1Api;
  apps: k8s.AppsV1Api;
  batch: k8s.BatchV1Api;
  autoscaling: k8s.AutoscalingV2Api;
  logs: Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startSimulatedCluster(options: SimulatorOptions = {}): Promise<SimulatedCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-sim-'));
  const logs: Array<Record<string, unknown>> = [];
  const server = await startServer({ port: 0, stateDir: dir, logger: (e) => logs.push(e) });
  const simulator = workloadSimulator({ readyDelayMs: 30, ...options });
  await registerController(server, simulator);
  const kc = server.kubeConfig;
  return {
    server,
    simulator,
    core: kc.makeApiClient(k8s.CoreV1Api),
    apps: kc.makeApiClient(k8s.AppsV1Api),
    batch: kc.makeApiClient(k8s.BatchV1Api),
    autoscaling: kc.makeApiClient(k8s.AutoscalingV2Api),
    logs,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a value that is not undefined/false (or throws the last failure on timeout). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

export const labelsOf = (selector: Record<string, string>) =>
  Object.entries(selector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
