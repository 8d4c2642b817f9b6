import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchResult } from '../types.js';
import { childClient, cpuMs, startChild, stopChild } from './child.js';
import { createNamespace, pool, type BenchClient } from './server.js';

/**
 * The server's share of `bench controller`, without the controller: `oam server --no-controller`
 * in its own process (workloads simulated) gets, per app, what the OAM controller sends for a
 * webservice with a gateway (server-side applies of a Deployment, a Service and an Ingress, a
 * ConfigMap for its revision record), 16 in flight, with watches open on those kinds as the
 * controller's informers have them. The figure is the server's CPU time (user + sys) per app from
 * the first apply until every Deployment is available (its simulated Pod running, Endpoints
 * filled): the controller's own CPU and scheduling stay out of it.
 * `npm run bench kube-server`; OAM_BENCH_APPS=N changes the number of apps (default 500).
 */
const NS = 'apps';
const FIELD_MANAGER = 'bench-apps';
const WATCHED = [
  '/apis/apps/v1/deployments',
  '/api/v1/services',
  '/apis/networking.k8s.io/v1/ingresses',
  '/api/v1/configmaps',
];

function objects(i: number): Array<[string, object]> {
  const name = `app-${i}`;
  const labels = { 'app.oam.dev/name': name, 'app.oam.dev/component': name };
  const base = `/namespaces/${NS}`;
  return [
    [
      `/apis/apps/v1${base}/deployments/${name}`,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, labels },
        spec: {
          replicas: 1,
          selector: { matchLabels: { 'app.oam.dev/component': name } },
          template: {
            metadata: { labels },
            spec: {
              containers: [{ name, image: 'crccheck/hello-world', ports: [{ containerPort: 8000 }] }],
            },
          },
        },
      },
    ],
    [
      `/api/v1${base}/services/${name}`,
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name, labels },
        spec: {
          selector: { 'app.oam.dev/component': name },
          ports: [{ port: 8000, targetPort: 8000, protocol: 'TCP' }],
        },
      },
    ],
    [
      `/apis/networking.k8s.io/v1${base}/ingresses/${name}`,
      {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'Ingress',
        metadata: { name, labels },
        spec: {
          rules: [
            {
              host: `${name}.example.com`,
              http: {
                paths: [
                  {
                    path: '/',
                    pathType: 'ImplementationSpecific',
                    backend: { service: { name, port: { number: 8000 } } },
                  },
                ],
              },
            },
          ],
        },
      },
    ],
    [
      `/api/v1${base}/configmaps/${name}-v1`,
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `${name}-v1`, labels },
        data: { revision: '1', components: JSON.stringify([{ name, type: 'webservice' }]) },
      },
    ],
  ];
}

const apply = (client: BenchClient, path: string, body: object) =>
  client.send(
    'PATCH',
    `${path}?fieldManager=${FIELD_MANAGER}&force=true`,
    body,
    'application/apply-patch+yaml',
  );

export async function run(): Promise<BenchResult[]> {
  const n = Number(process.env.OAM_BENCH_APPS ?? 500);
  const stateDir = mkdtempSync(join(tmpdir(), 'oam-bench-apps-'));
  const server = await startChild(stateDir);
  const client = childClient(server.kubeconfig);
  const stops: Array<() => void> = [];
  try {
    await createNamespace(client, NS);
    const available = new Set<string>();
    let allAvailable!: () => void;
    const done = new Promise<void>((resolve) => (allAvailable = resolve));
    for (const path of WATCHED) {
      stops.push(
        await client.watch(`${path}?watch=true&allowWatchBookmarks=true`, (event) => {
          const obj = event.object;
          if (obj?.kind !== 'Deployment' || event.type === 'DELETED') return;
          if (obj.status?.availableReplicas === 1) available.add(obj.metadata.name);
          if (available.size === n) allAvailable();
        }),
      );
    }
    const cpu0 = cpuMs(server.proc.pid!);
    const t0 = performance.now();
    await pool(n, 16, async (i) => {
      for (const [path, body] of objects(i)) await apply(client, path, body);
    });
    await done;
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuMs(server.proc.pid!) - cpu0;
    return report(n, seconds, cpu);
  } finally {
    for (const stop of stops) stop();
    client.close();
    await stopChild(server.proc);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function report(n: number, seconds: number, cpu: number): BenchResult[] {
  const detail = `${n} apps (Deployment, Service, Ingress, ConfigMap applied; 16 in flight) until every Deployment is available`;
  return [
    { name: 'apps: server CPU per app', value: cpu / n, unit: 'ms', detail: `user + sys; ${detail}` },
    { name: 'apps: all available', value: seconds, unit: 's', detail: `${(n / seconds).toFixed(1)} apps/s` },
  ];
}
