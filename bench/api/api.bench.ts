/**
 * `npm run bench api`: the REST API with its caches warm, on the embedded API
 * server with the controller running: requests per second and latency (p50,
 * p99) of catalog GETs and an application GET, over HTTP with a bearer token,
 * several clients at once (keep-alive).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { Registry } from 'prom-client';
import { stringify } from 'yaml';
import { startApi } from '#api-server';
import { startController } from '#controller';
import { eventually } from '#kube-core';
import { startServer } from '#kube-server';
import { workloadSimulator } from '#simulator';
import { ResourceClient, silentLogger } from '#runtime';
import { installOamCrds } from '../../apps/cli/src/commands/server/install-crds.js';
import { percentile, type BenchResult, type BenchSuite } from '../types.js';

const TOKEN = 'bench-token-0123456789abcdef';
const CLIENTS = 8;
const REQUESTS = 2000;

function get(agent: Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { Authorization: `Bearer ${TOKEN}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** REQUESTS GETs of `url` by CLIENTS concurrent clients: req/s over the whole run, latencies per request. */
async function load(url: string): Promise<{ rps: number; p50: number; p99: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next++ < REQUESTS) {
        const t = performance.now();
        const status = await get(agent, url);
        if (status !== 200) throw new Error(`GET ${url}: ${status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { rps: REQUESTS / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export const suite: BenchSuite = {
  name: 'api',
  async run(): Promise<BenchResult[]> {
    const dir = mkdtempSync(join(tmpdir(), 'oam-bench-api-'));
    const server = await startServer({
      port: 0,
      stateDir: join(dir, 'state'),
      simulateWorkloads: true,
      simulator: workloadSimulator,
    });
    await installOamCrds(server.kubeConfig);
    const controller = await startController({
      kubeConfig: server.kubeConfig,
      logger: silentLogger,
      registry: new Registry(),
    });
    const tokensFile = join(dir, 'tokens.yaml');
    writeFileSync(tokensFile, stringify([{ token: TOKEN, namespaces: ['*'], verbs: ['*'] }]));
    const api = await startApi({
      kubeConfig: server.kubeConfig,
      port: 0,
      auth: 'tokens',
      tokensFile,
      logger: silentLogger,
      rateLimitQps: 1_000_000,
    });
    try {
      const apps = new ResourceClient(controller.manager.transport, {
        group: 'core.oam.dev',
        version: 'v1beta1',
        plural: 'applications',
        kind: 'Application',
        namespaced: true,
      });
      await apps.create({
        apiVersion: 'core.oam.dev/v1beta1',
        kind: 'Application',
        metadata: { name: 'bench', namespace: 'default' },
        spec: { components: [{ name: 'web', type: 'webservice', properties: { image: 'nginx:1.27' } }] },
      });
      const base = `${api.url}/api/v1`;
      const agent = new Agent({ keepAlive: true });
      // Warm: the app in the API's cache, the webservice schema published as its ConfigMap.
      await eventually(
        async () => (await get(agent, `${base}/namespaces/default/applications/bench`)) === 200,
        'the app cached',
      );
      await eventually(
        async () => {
          const body = await (
            await fetch(`${base}/catalog/components/webservice`, {
              headers: { Authorization: `Bearer ${TOKEN}` },
            })
          ).json();
          return (body as { schemaSource?: string }).schemaSource === 'configmap';
        },
        'the webservice schema published',
        { timeoutMs: 60_000 },
      );
      agent.destroy();
      const results: BenchResult[] = [];
      for (const [name, path] of [
        ['catalog list', '/catalog/components'],
        ['catalog detail (schema + example)', '/catalog/components/webservice'],
        ['application GET', '/namespaces/default/applications/bench'],
      ] as const) {
        const r = await load(base + path);
        const detail = `${CLIENTS} clients, ${REQUESTS} requests, keep-alive, tokens auth`;
        results.push({ name: `${name}: throughput`, value: r.rps, unit: 'req/s', detail });
        results.push({ name: `${name}: p50`, value: r.p50, unit: 'ms', detail });
        results.push({ name: `${name}: p99`, value: r.p99, unit: 'ms', detail });
      }
      return results;
    } finally {
      await api.stop();
      await controller.stop();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
