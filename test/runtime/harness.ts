import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import type { KubeObject } from '#kube-core';
import { startServer, type RunningServer } from '#kube-server';
import { Manager, silentLogger, type InformerDefaults } from '#runtime';

/** The embedded API server over HTTPS and a runtime Manager started against it (no controllers). */
export interface RuntimeCluster {
  server: RunningServer;
  manager: Manager;
  registry: Registry;
  /** A fresh namespace for one test. */
  namespace(prefix: string): Promise<string>;
  /** Streams the transport has open now (watches), from its `rest_client_open_streams` gauge. */
  openWatches(): Promise<number>;
  stop(): Promise<void>;
}

export async function startRuntimeCluster(
  options: { informers?: Omit<InformerDefaults, 'namespace'> } = {},
): Promise<RuntimeCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'runtime-e2e-'));
  const server = await startServer({ port: 0, stateDir: dir });
  const registry = new Registry();
  const manager = new Manager({
    kubeConfig: server.kubeConfig,
    fieldManager: 'runtime-e2e',
    logger: silentLogger,
    registry,
    transport: { qps: 500, burst: 500 },
    informers: options.informers,
  });
  await manager.start();
  return {
    server,
    manager,
    registry,
    async namespace(prefix) {
      const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
      await manager.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject);
      return name;
    },
    async openWatches() {
      const metric = await registry.getSingleMetric('rest_client_open_streams')?.get();
      return metric?.values.find((v) => v.labels.verb === 'watch')?.value ?? 0;
    },
    async stop() {
      await manager.stop();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
