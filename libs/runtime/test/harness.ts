import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { startServer } from '#kube-server';
import { ResourceClient } from '../src/client/resource-client.js';
import { NAMESPACES } from '../src/client/resource-kind.js';
import { KubeTransport } from '../src/client/transport.js';

/**
 * The API server the integration tests talk to: a real kube-apiserver when
 * RUNTIME_KUBECONFIG names its kubeconfig, else the project's embedded server
 * started on a random port with its own state directory.
 */
export interface TestServer {
  kubeConfig: KubeConfig;
  /** 'embedded' honours historyWindow, so a watch that falls behind gets 410 Gone for sure. */
  flavour: 'embedded' | 'external';
  stop(): Promise<void>;
}

export async function startTestServer(options: { historyWindow?: number } = {}): Promise<TestServer> {
  const external = process.env.RUNTIME_KUBECONFIG;
  if (external) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(external);
    return { kubeConfig, flavour: 'external', stop: async () => undefined };
  }
  const stateDir = mkdtempSync(join(tmpdir(), 'runtime-int-'));
  const srv = await startServer({ port: 0, stateDir, historyWindow: options.historyWindow });
  return {
    kubeConfig: srv.kubeConfig,
    flavour: 'embedded',
    stop: async () => {
      await srv.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** A fresh namespace per test file, deleted afterwards. */
export async function withNamespace(
  kubeConfig: KubeConfig,
  prefix: string,
): Promise<{ name: string; remove(): Promise<void> }> {
  const transport = new KubeTransport(kubeConfig, { registry: new Registry() });
  const namespaces = new ResourceClient(transport, NAMESPACES);
  const name = `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e4)}`;
  await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return {
    name,
    remove: async () => {
      await namespaces.delete(undefined, name);
      transport.close();
    },
  };
}

/**
 * A TCP proxy in front of the API server (TLS passes through untouched), so a
 * test can cut every open connection, watches included, at a moment of its choosing.
 */
export class CuttableProxy {
  private readonly sockets = new Set<net.Socket>();
  private server?: net.Server;
  /** While paused, new connections are refused: the client sees the server as down. */
  paused = false;

  constructor(private readonly target: URL) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      if (this.paused) return void client.destroy();
      const upstream = net.connect(
        Number(this.target.port || 443),
        this.target.hostname.replace(/^\[|\]$/g, ''),
      );
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy()); // a reset on one side just ends the pair
      }
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Destroys every open connection; clients reconnect (or fail while paused). */
  cut(): void {
    for (const s of this.sockets) s.destroy();
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /**
   * A copy of `kc` whose current cluster points at this proxy. The server's
   * certificate is still checked against the original host name (tls-server-name),
   * so this works for a kube-apiserver whose certificate does not name 127.0.0.1.
   */
  kubeConfigVia(kc: KubeConfig, port: number): KubeConfig {
    const copy = new KubeConfig();
    copy.loadFromString(kc.exportConfig());
    const cluster = copy.getCurrentCluster()!;
    const host = new URL(cluster.server).hostname.replace(/^\[|\]$/g, '');
    const tlsServerName = cluster.tlsServerName ?? (net.isIP(host) ? undefined : host);
    const clusters = copy.clusters.map((c) =>
      c.name === cluster.name ? { ...c, server: `https://127.0.0.1:${port}`, tlsServerName } : c,
    );
    copy.loadFromOptions({
      clusters,
      users: copy.users,
      contexts: copy.contexts,
      currentContext: copy.currentContext,
    });
    return copy;
  }
}

/** The one polling wait of the codebase (fails with the last value seen); re-exported for the specs here. */
export { eventually } from '#kube-core';
