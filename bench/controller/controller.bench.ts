import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { CONTROLLER_NAMESPACE, generateCrds, HEARTBEAT_LEASE } from '#api';
import {
  CUSTOM_RESOURCE_DEFINITIONS,
  KubeTransport,
  NAMESPACES,
  ResourceClient,
  type ResourceKind,
} from '#runtime';
import { cpuMs, threadCpuMs, threadSplit } from '../proc.js';
import {
  cpuSeconds,
  heap,
  reconciles,
  reconcileSeconds,
  renderCache,
  renderCacheEntries,
  requestCount,
  requests,
  requestSeconds,
  scrape,
  writes,
} from './metrics.js';
import { median, percentile, type BenchResult, type BenchSuite } from '../types.js';

/**
 * `npm run bench controller [-- --apps 3000]`: N Applications (webservice +
 * scaler + gateway, KubeVela's anchor shape) created at once against the
 * embedded server (its own process, workloads simulated), reconciled by
 * `oam controller` in a third process whose own /metrics give its CPU,
 * heap and API requests. Then one full resync with nothing changed (API
 * writes, target 0; the heartbeat Lease's renewals are counted apart) and
 * 50 single-app updates (change → Deployment updated).
 * REAL_KUBECONFIG=... runs it against a real cluster instead of the embedded server.
 * OAM_BENCH_CPU_PROF=DIR writes the controller's (and the embedded server's) V8 CPU profiles there.
 * Figures go to bench/results/controller[-real][-N].json (N when not the default 1,000).
 */
const APPS: ResourceKind = {
  group: 'core.oam.dev',
  version: 'v1beta1',
  plural: 'applications',
  kind: 'Application',
  namespaced: true,
};
const LEASES: ResourceKind = {
  group: 'coordination.k8s.io',
  version: 'v1',
  plural: 'leases',
  kind: 'Lease',
  namespaced: true,
};
const DEPLOYMENTS: ResourceKind = {
  group: 'apps',
  version: 'v1',
  plural: 'deployments',
  kind: 'Deployment',
  namespaced: true,
};
const NS = 'bench';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** The controller's workers (`--workers N` to try another count). */
const WORKERS = flag('--workers', 16);
/** How many Applications the run creates (`--apps N`). */
const N_APPS = flag('--apps', 1000);
/**
 * The full resync the bench measures comes once every app runs: 60 s per 1,000 apps, so
 * a resync never lands inside the convergence it would slow down. (The controller's own
 * default, 600 s, never does at these sizes either; the bench only shortens the wait.)
 */
const RESYNC_SECONDS = Math.max(60, Math.ceil(N_APPS / 1000) * 60);
/** The controller's flags for the run (reported with the figures). */
const CONTROLLER_FLAGS = [
  '--workers',
  String(WORKERS),
  '--qps',
  '2000',
  '--burst',
  '4000',
  '--resync-period',
  String(RESYNC_SECONDS),
];

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

function app(i: number, image = 'crccheck/hello-world'): KubeObject {
  const name = `app-${i}`;
  return {
    apiVersion: 'core.oam.dev/v1beta1',
    kind: 'Application',
    metadata: { name, namespace: NS },
    spec: {
      components: [
        {
          name,
          type: 'webservice',
          properties: { image, ports: [{ port: 8000, expose: true }] },
          traits: [
            { type: 'scaler', properties: { replicas: 1 } },
            { type: 'gateway', properties: { domain: `${name}.example.com`, http: { '/': 8000 } } },
          ],
        },
      ],
    },
  };
}

function spawnOam(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  probe = false,
): { proc: ChildProcess; out: () => string } {
  const prof = process.env.OAM_BENCH_CPU_PROF;
  const node = prof ? ['--cpu-prof', '--cpu-prof-dir', prof, `--cpu-prof-name=${args[0]}.cpuprofile`] : [];
  if (probe) node.push('--expose-gc', '--import', fileURLToPath(new URL('./heap-probe.js', import.meta.url)));
  const proc = spawn(process.execPath, [...node, join(projectRoot(), 'bin', 'oam.js'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe', ...(probe ? (['ipc'] as const) : [])],
  });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  proc.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  return { proc, out: () => out };
}

/** The controller's heap used after a full garbage collection (its heap probe, over IPC). */
function heapAfterGc(proc: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the controller did not answer the heap probe')), 60_000);
    proc.once('message', (m: { heapUsed: number }) => {
      clearTimeout(timer);
      resolve(m.heapUsed);
    });
    proc.send('heap');
  });
}

/** Longest the controller keeps an idle render cache entry (RENDER_CACHE_IDLE_MS × 1.5), with a margin. */
const RENDER_CACHE_DRAINED_MS = 120_000;

/** When each MODIFIED event of one Lease arrived, until `stop()`. */
async function leaseRenewals(
  transport: KubeTransport,
  namespace: string,
  name: string,
): Promise<{ between(from: number, to: number): number; next(): Promise<void>; stop(): void }> {
  const leases = new ResourceClient(transport, LEASES);
  const fieldSelector = `metadata.name=${name}`;
  const list = await leases.list({ namespace, fieldSelector });
  const seen: number[] = [];
  let waiting: (() => void)[] = [];
  const abort = new AbortController();
  void leases
    .watch(
      { namespace, fieldSelector, resourceVersion: list.metadata.resourceVersion, signal: abort.signal },
      (e) => {
        if (e.type !== 'MODIFIED') return;
        seen.push(performance.now());
        for (const resolve of waiting) resolve();
        waiting = [];
      },
    )
    .catch(() => undefined);
  return {
    between: (from, to) => seen.filter((t) => t > from && t <= to).length,
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
    stop: () => abort.abort(),
  };
}

const isRunning = (a: KubeObject) => (a.status as { status?: string } | undefined)?.status === 'running';

/**
 * Resolves once all n Applications in NS are `running`: one list, then a watch (re-listed if it
 * ends), so the server and this process do not serialise every app each second as polling would.
 */
async function allRunning(apps: ResourceClient, n: number): Promise<void> {
  for (;;) {
    const list = await apps.list({ namespace: NS });
    const running = new Set(list.items.filter(isRunning).map((a) => a.metadata?.name));
    if (running.size === n) return;
    const abort = new AbortController();
    await apps
      .watch({ namespace: NS, resourceVersion: list.metadata.resourceVersion, signal: abort.signal }, (e) => {
        if (e.type === 'BOOKMARK') return;
        if (e.type === 'ERROR') return abort.abort(); // 410 Gone and the like: list again
        const name = e.object.metadata?.name;
        if (e.type !== 'DELETED' && isRunning(e.object)) running.add(name);
        else running.delete(name);
        if (running.size === n) abort.abort();
      })
      .catch((err: unknown) => {
        // An aborted watch is the way out; anything else (410 Gone, a dropped stream): list again.
        if (!abort.signal.aborted)
          console.error(`watch of applications ended (${String(err)}); listing again`);
      });
    if (running.size === n) return;
  }
}

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

export const suite: BenchSuite = {
  name: 'controller',
  async run(): Promise<BenchResult[]> {
    const n = N_APPS;
    const real = process.env.REAL_KUBECONFIG;
    suite.resultsName = `controller${real ? '-real' : ''}${n === 1000 ? '' : `-${n}`}`;
    const dir = mkdtempSync(join(tmpdir(), 'oam-bench-controller-'));
    const children: ChildProcess[] = [];
    /** The embedded server's CPU so far (ms), from /proc; 0 against a real cluster. */
    let serverCpuMs = () => 0;
    try {
      let kubeconfig = real ?? '';
      if (!real) {
        const server = spawnOam(
          ['server', '--port', '0', '--no-controller', '--state-dir', join(dir, 'server')],
          {
            ...process.env,
            OAM_HOME: dir,
          },
        );
        children.push(server.proc);
        serverCpuMs = () => cpuMs(server.proc.pid!);
        kubeconfig = await eventually(
          () => /^export KUBECONFIG=(.+)$/m.exec(server.out())?.[1],
          'the server to start',
          {
            timeoutMs: 120_000,
          },
        );
      }
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfig);
      const transport = new KubeTransport(kc, { qps: 5000, burst: 5000, registry: new Registry() });
      const apps = new ResourceClient(transport, APPS);
      // A bare server (--no-controller) has no OAM CRDs; a real cluster may not either.
      const crds = new ResourceClient<KubeObject>(transport, CUSTOM_RESOURCE_DEFINITIONS);
      for (const crd of generateCrds() as KubeObject[])
        await crds.apply(crd, { fieldManager: 'bench', force: true });
      await new ResourceClient(transport, NAMESPACES)
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })
        .catch(() => undefined);

      const controller = spawnOam(
        ['controller', '--kubeconfig', kubeconfig, '--metrics-port', '0', ...CONTROLLER_FLAGS],
        process.env,
        true,
      );
      children.push(controller.proc);
      const port = await eventually(
        () => {
          if (controller.proc.exitCode !== null)
            throw new Error(`oam controller exited: ${controller.out().slice(-2000)}`);
          return Number(/"metricsPort":(\d+)/.exec(controller.out())?.[1]) || undefined;
        },
        'the controller to start',
        { timeoutMs: 120_000 },
      );
      const heapAtStart = await heapAfterGc(controller.proc);
      const before = await scrape(port);
      const threads0 = real ? undefined : threadCpuMs(controller.proc.pid!);
      const serverCpu0 = serverCpuMs();

      // All at once (16 in flight), then wait until every one is running.
      const t0 = performance.now();
      await inParallel([...Array(n).keys()], 16, (i) =>
        apps.apply(app(i), { fieldManager: 'bench', force: true }),
      );
      const createdMs = performance.now() - t0;
      await allRunning(apps, n);
      const convergeMs = performance.now() - t0;
      const converged = await scrape(port);
      const threads =
        threads0 && threadSplit(threads0, threadCpuMs(controller.proc.pid!), controller.proc.pid!);
      const serverCpu = serverCpuMs() - serverCpu0;

      // One full resync with nothing changed: every app reconciled again, writes counted. The
      // heartbeat Lease (renewed every 10 s by design) is counted apart, from its own watch.
      // Each edge of the window is a scrape taken just after a renewal landed (the next is ~10 s
      // away), so no renewal can be in the controller's count and outside the window, or the reverse.
      const beats = await leaseRenewals(transport, CONTROLLER_NAMESPACE, HEARTBEAT_LEASE);
      const afterRenewal = async () => {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          beats.next(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('no heartbeat Lease renewal within 60 s')), 60_000);
          }),
        ]).finally(() => clearTimeout(timer));
        await new Promise((r) => setTimeout(r, 500)); // its response reaches the controller's count
        const m = await scrape(port);
        return { m, at: performance.now() };
      };
      const { m: atRest, at: from } = await afterRenewal();
      const r0 = reconciles(atRest);
      const w0 = writes(atRest);
      // The lowest heap used seen while at rest (garbage included), for comparison with earlier runs.
      let lowestHeap = heap(atRest);
      await eventually(
        async () => {
          const m = await scrape(port);
          lowestHeap = Math.min(lowestHeap, heap(m));
          return reconciles(m) >= r0 + n;
        },
        'a full resync',
        { timeoutMs: 600_000, intervalMs: 1000 },
      );
      const { m: resynced, at: to } = await afterRenewal();
      const heartbeats = beats.between(from, to);
      beats.stop();
      const resyncWrites = writes(resynced) - w0 - heartbeats;

      // At rest: once the render cache dropped what sat idle (nothing renders a settled app), the
      // live heap after a full collection.
      const drainStart = performance.now();
      let cacheLeft = renderCacheEntries(resynced);
      while (cacheLeft > 0 && performance.now() - drainStart < RENDER_CACHE_DRAINED_MS) {
        await new Promise((r) => setTimeout(r, 1000));
        cacheLeft = renderCacheEntries(await scrape(port));
      }
      const restingHeap = await heapAfterGc(controller.proc);

      // 50 single-app updates: from the change to the Deployment carrying the new image.
      const deployments = new ResourceClient(transport, DEPLOYMENTS);
      const latencies: number[] = [];
      for (let k = 0; k < 50; k++) {
        const i = (k * 7919) % n;
        const image = `crccheck/hello-world:v${k + 1}`;
        const start = performance.now();
        await apps.apply(app(i, image), { fieldManager: 'bench', force: true });
        await eventually(
          async () => {
            const d = (await deployments.get(NS, `app-${i}`)) as {
              spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
            };
            return d.spec?.template?.spec?.containers?.[0]?.image === image;
          },
          `app-${i} to be updated`,
          { timeoutMs: 60_000, intervalMs: 5 },
        );
        latencies.push(performance.now() - start);
      }
      transport.close();

      const where = real ? 'real control plane' : 'embedded server';
      const flags = CONTROLLER_FLAGS.join(' ');
      return [
        { name: `${n} apps created (16 in flight)`, value: createdMs / 1000, unit: 's', detail: where },
        {
          name: `${n} apps all running`,
          value: convergeMs / 1000,
          unit: 's',
          detail: `${((n * 1000) / convergeMs).toFixed(1)} apps/s; oam controller ${flags}`,
        },
        {
          name: 'controller CPU per app',
          value: ((cpuSeconds(converged) - cpuSeconds(before)) * 1000) / n,
          unit: 'ms',
          detail:
            'process_cpu_seconds_total, start to all running' +
            (threads
              ? `; by thread (/proc): main ${(threads.main / n).toFixed(1)} ms, busiest others ${threads.others
                  .slice(0, 3)
                  .map((ms) => (ms / n).toFixed(1))
                  .join(
                    ' / ',
                  )} ms, all others ${(threads.others.reduce((a, b) => a + b, 0) / n).toFixed(1)} ms`
              : ''),
        },
        ...(real
          ? []
          : [
              {
                name: 'embedded server CPU per app',
                value: serverCpu / n,
                unit: 'ms',
                detail: `user+sys from /proc, start to all running: ${(serverCpu / 1000).toFixed(1)} CPU-s in ${(convergeMs / 1000).toFixed(1)} s (${((100 * serverCpu) / convergeMs).toFixed(0)}% of one core)`,
              },
            ]),
        {
          name: 'controller workers busy while converging',
          value:
            (100 * (reconcileSeconds(converged) - reconcileSeconds(before))) /
            (WORKERS * (convergeMs / 1000)),
          unit: '%',
          detail:
            `reconcile time / (${WORKERS} workers × time to all running): near 100% means the workers, not CPU, set the pace; ` +
            `mean API request ${((1000 * (requestSeconds(converged) - requestSeconds(before))) / Math.max(1, requestCount(converged) - requestCount(before))).toFixed(0)} ms`,
        },
        {
          name: 'reconciles per app to converge',
          value: (reconciles(converged) - reconciles(before)) / n,
          unit: 'reconciles',
          detail: 'controller_runtime_reconcile_total{controller="application"}, start to all running',
        },
        {
          name: 'controller heap per app',
          value: (restingHeap - heapAtStart) / n / 1024,
          unit: 'KiB',
          detail:
            `heap used after a forced full GC, at rest (${mib(restingHeap)}; render cache entries left: ${cacheLeft}) − at start (${mib(heapAtStart)}); ` +
            `without forcing: lowest seen in the resync ${mib(lowestHeap)}, when all ran ${mib(heap(converged))}`,
        },
        {
          name: 'template evaluations per app to converge',
          value: (renderCache(converged, 'miss') - renderCache(before, 'miss')) / n,
          unit: 'evaluations',
          detail: `render cache misses: webservice and gateway read the app's name, scaler reads no context and renders once for all apps (so 2 + 1/N); hits ${((renderCache(converged, 'hit') - renderCache(before, 'hit')) / n).toFixed(2)} per app`,
        },
        {
          name: 'API requests per app',
          value: (requests(converged) - requests(before)) / n,
          unit: 'requests',
          detail: `of which writes ${((writes(converged) - writes(before)) / n).toFixed(2)}`,
        },
        {
          name: 'writes in a full resync, nothing changed',
          value: resyncWrites,
          unit: 'writes',
          detail: `${reconciles(resynced) - r0} reconciles; heartbeat Lease renewals apart: ${heartbeats}`,
        },
        {
          name: 'controller CPU per reconcile in the resync',
          value:
            ((cpuSeconds(resynced) - cpuSeconds(atRest)) * 1000) / Math.max(1, reconciles(resynced) - r0),
          unit: 'ms',
          detail: 'nothing changed: what a reconcile of a settled app costs (heartbeat and scrapes included)',
        },
        {
          name: 'single-app update p50',
          value: median(latencies),
          unit: 'ms',
          detail: 'apply → Deployment updated',
        },
        {
          name: 'single-app update p99',
          value: percentile(latencies, 99),
          unit: 'ms',
          detail: '50 updates, one at a time',
        },
      ];
    } finally {
      for (const c of children.reverse()) {
        if (c.exitCode !== null || c.signalCode !== null) continue;
        const exited = new Promise((r) => c.once('exit', r));
        c.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
