import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as k8s from '@kubernetes/client-node';
import { startServer } from '#kube-server';
import { workloadSimulator } from '#simulator';

/**
 * The embedded server (libs/kube-server) in a fresh temp state dir, on a random loopback port,
 * with its workload simulator on: the real cluster the same suites run against has
 * kube-controller-manager and a kwok node, so Deployments get ReplicaSets and Pods on both.
 */
export interface EmbeddedServer {
  kc: k8s.KubeConfig;
  stateDir: string;
  stop(): Promise<void>;
}

export async function startEmbedded(historyWindow?: number): Promise<EmbeddedServer> {
  const stateDir = mkdtempSync(join(tmpdir(), 'oam-conformance-'));
  const srv = await startServer({
    port: 0,
    stateDir,
    simulateWorkloads: true,
    simulation: { readyDelayMs: 100 },
    simulator: workloadSimulator,
    ...(historyWindow ? { historyWindow } : {}),
  });
  return {
    kc: srv.kubeConfig,
    stateDir,
    stop: async () => {
      await srv.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
