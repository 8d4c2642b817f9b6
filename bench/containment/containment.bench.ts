import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { parse, stringify } from 'yaml';
import { projectRoot } from '#definitions';
import { eventually, type KubeObject } from '#kube-core';
import { APPLICATIONS, COMPONENT_DEFINITIONS, CONTROLLER_NAMESPACE, generateCrds, LEADER_LEASE } from '#api';
import { CUSTOM_RESOURCE_DEFINITIONS, KubeTransport, LEASES, NAMESPACES, ResourceClient } from '#runtime';
import { startChild, stopChild } from '../kube-server/child.js';
import { scrape } from '../controller/metrics.js';
import type { BenchResult, BenchSuite } from '../types.js';
import { RUNAWAYS, type Runaway } from './runaways.js';

/**
 * `npm run bench containment`: for each kind of runaway template (bench/containment/runaways.ts),
 * against the embedded server with `oam controller --leader-elect` in a process of its own:
 * - the controller's event-loop delay while the runaway runs (max and p99, from its /metrics, and
 *   the slowest /healthz answer seen polling it every 200 ms),
 * - its peak RSS (VmHWM, reset before each runaway),
 * - a healthy app's time to converge alone and while the runaway runs, as a ratio from the same run,
 * - whether the runaway app reports its limit, and that the Lease never changed hands;
 * then `oam render` of each runaway: how long until it answers, and what.
 * Targets (issue "Containment"): event-loop delay ≤ 100 ms, RSS ≤ 1 GiB, ratio ≤ 2×, render ≤ 10 s.
 */
const CALM = 'calm';

/** `--kinds a,b`: only these runaways (default all). */
function chosenRunaways(): readonly Runaway[] {
  const i = process.argv.indexOf('--kinds');
  if (i < 0) return RUNAWAYS;
  const wanted = new Set(process.argv[i + 1]?.split(','));
  return RUNAWAYS.filter((r) => wanted.has(r.kind));
}

/** Progress on stderr: each runaway takes up to a minute. */
const progress = (line: string) => process.stderr.write(`containment: ${line}\n`);

const healthyApp = (name: string): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name, namespace: CALM },
  spec: {
    components: [
      {
        name,
        type: 'webservice',
        properties: { image: 'crccheck/hello-world', ports: [{ port: 8000, expose: true }] },
        traits: [{ type: 'scaler', properties: { replicas: 1 } }],
      },
    ],
  },
});

/** examples/handlebars' `static-site` type, in CALM. */
function staticSiteDefinition(): KubeObject {
  const file = join(projectRoot(), 'examples', 'handlebars', 'definition.yaml');
  const definition = parse(readFileSync(file, 'utf8')) as KubeObject;
  return { ...definition, metadata: { ...definition.metadata, namespace: CALM } };
}

const staticSiteApp = (name: string): KubeObject => ({
  apiVersion: 'core.oam.dev/v1beta1',
  kind: 'Application',
  metadata: { name, namespace: CALM },
  spec: { components: [{ name, type: 'static-site', properties: { html: '<h1>calm</h1>' } }] },
});

interface AppStatus {
  status?: string;
  conditions?: { type: string; status: string; message?: string }[];
}
const statusOf = (a: KubeObject | undefined) => (a?.status ?? {}) as AppStatus;

/** Peak RSS since the last reset, in bytes; resetting needs write access to /proc/PID/clear_refs (root). */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}
function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false; // not root: the peak is then since the process started, and the table says so
  }
}

/** Polls /healthz every 200 ms until stopped: the slowest answer, and how many failed. */
function healthProbe(port: number): { stop(): Promise<{ slowestMs: number; failed: number }> } {
  let slowestMs = 0;
  let failed = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(30_000) })
        .then((r) => r.ok)
        .catch(() => false);
      slowestMs = Math.max(slowestMs, performance.now() - t0);
      if (!ok) failed++;
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return { slowestMs, failed };
    },
  };
}

export const suite: BenchSuite = {
  name: 'containment',
  async run(): Promise<BenchResult[]> {
    const dir = mkdtempSync(join(tmpdir(), 'oam-bench-containment-'));
    const children: ChildProcess[] = [];
    const results: BenchResult[] = [];
    try {
      const server = await startChild(join(dir, 'server'));
      children.push(server.proc);
      const kc = new KubeConfig();
      kc.loadFromFile(server.kubeconfig);
      const transport = new KubeTransport(kc, { qps: 500, burst: 500, registry: new Registry() });
      const crds = new ResourceClient<KubeObject>(transport, CUSTOM_RESOURCE_DEFINITIONS);
      for (const crd of generateCrds() as KubeObject[])
        await crds.apply(crd, { fieldManager: 'bench', force: true });
      const namespaces = new ResourceClient(transport, NAMESPACES);
      const namespace = (name: string) =>
        namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }).catch(() => undefined);
      await namespace(CALM);

      const controller = spawn(
        process.execPath,
        [
          join(projectRoot(), 'bin', 'oam.js'),
          'controller',
          '--kubeconfig',
          server.kubeconfig,
          '--metrics-port',
          '0',
          '--leader-elect',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(controller);
      let out = '';
      const keep = (d: Buffer) => (out = (out + d.toString()).slice(-20_000));
      controller.stdout!.on('data', keep);
      controller.stderr!.on('data', keep);
      const port = await eventually(
        () => {
          if (controller.exitCode !== null) throw new Error(`oam controller exited: ${out.slice(-2000)}`);
          return Number(/"metricsPort":(\d+)/.exec(out)?.[1]) || undefined;
        },
        'the controller to start',
        { timeoutMs: 120_000 },
      );
      const apps = new ResourceClient<KubeObject>(transport, APPLICATIONS);
      const definitions = new ResourceClient<KubeObject>(transport, COMPONENT_DEFINITIONS);
      // A Handlebars type for healthy previews: the API's Handlebars workers are warm before its RSS is read.
      await definitions.apply(staticSiteDefinition(), { fieldManager: 'bench', force: true });
      const leases = new ResourceClient(transport, LEASES);
      const leader = async () => {
        const spec = (await leases.get(CONTROLLER_NAMESPACE, LEADER_LEASE)).spec as {
          holderIdentity?: string;
          leaseTransitions?: number;
        };
        return `${spec.holderIdentity}#${spec.leaseTransitions ?? 0}`;
      };
      await eventually(() => leader().catch(() => undefined), 'the controller to lead', {
        timeoutMs: 60_000,
      });

      let healthy = 0;
      /** Applies a fresh healthy app in CALM and resolves with its time to `running`, in seconds. */
      const converge = async () => {
        const app = healthyApp(`healthy-${healthy++}`);
        const t0 = performance.now();
        await apps.apply(app, { fieldManager: 'bench', force: true });
        await eventually(
          async () => statusOf(await apps.get(CALM, app.metadata!.name!)).status === 'running',
          `${app.metadata!.name} to run`,
          { timeoutMs: 300_000, intervalMs: 100 },
        );
        return (performance.now() - t0) / 1000;
      };
      await converge(); // warm: the built-ins compiled, the caches filled
      const leaderAtStart = await leader();
      const resettable = resetPeakRss(controller.pid!);

      for (const runaway of chosenRunaways()) {
        progress(`${runaway.kind}: applying`);
        const ns = `tenant-${runaway.kind}`;
        await namespace(ns);
        for (const d of runaway.definitions(ns))
          await definitions.apply(d, { fieldManager: 'bench', force: true });
        const alone = await converge();
        resetPeakRss(controller.pid!);
        await scrape(port); // resets the event-loop histogram
        const probe = healthProbe(port);
        for (const a of runaway.apps(ns)) await apps.apply(a, { fieldManager: 'bench', force: true });
        const during = await converge();
        progress(
          `${runaway.kind}: a healthy app converged in ${during.toFixed(1)} s (alone ${alone.toFixed(1)} s)`,
        );
        const reported = await limitReported(apps, ns, runaway);
        progress(`${runaway.kind}: ${reported ?? 'no limit reported'}`);
        if (!reported) progress(`the controller's last output:\n${out.slice(-3000)}`);
        const metrics = await scrape(port);
        const health = await probe.stop();
        const rss = peakRss(controller.pid!);
        const detail = `${reported ?? 'no limit reported'}; /healthz slowest ${health.slowestMs.toFixed(0)} ms, ${health.failed} failed`;
        results.push(
          {
            name: `${runaway.kind}: event-loop delay max`,
            value: (metrics.get('nodejs_eventloop_lag_max_seconds') ?? NaN) * 1000,
            unit: 'ms',
            detail,
          },
          {
            name: `${runaway.kind}: event-loop delay p99`,
            value: (metrics.get('nodejs_eventloop_lag_p99_seconds') ?? NaN) * 1000,
            unit: 'ms',
          },
          {
            name: `${runaway.kind}: peak RSS`,
            value: rss / 2 ** 20,
            unit: 'MiB',
            detail: resettable ? 'since the runaway was applied' : 'since the controller started (not root)',
          },
          {
            name: `${runaway.kind}: healthy app converges, during / alone`,
            value: during / alone,
            unit: 'ratio',
            detail: `${during.toFixed(2)} s during, ${alone.toFixed(2)} s alone`,
          },
        );
        for (const a of runaway.apps(ns)) await apps.delete(ns, a.metadata!.name!).catch(() => undefined);
      }
      results.push({
        name: 'Lease unchanged (holder#transitions)',
        value: (await leader()) === leaderAtStart ? 1 : 0,
        unit: 'bool',
        detail: `${leaderAtStart} → ${await leader()}`,
      });
      progress('the REST API preview of each runaway');
      results.push(...(await previewRunaways(server.kubeconfig, dir, chosenRunaways())));
      progress('oam render of each runaway');
      results.push(...renderRunaways(dir, chosenRunaways()));
      return results;
    } finally {
      for (const c of children) await stopChild(c);
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/** Waits until every app of the runaway reports a limit in its Rendered condition; returns the first message. */
async function limitReported(
  apps: ResourceClient,
  ns: string,
  runaway: Runaway,
): Promise<string | undefined> {
  const messages = await Promise.all(
    runaway.apps(ns).map((a) =>
      eventually(
        async () => {
          const rendered = statusOf(await apps.get(ns, a.metadata!.name!)).conditions?.find(
            (c) => c.type === 'Rendered' && c.status === 'False',
          );
          return rendered?.message && /limit/.test(rendered.message) ? rendered.message : undefined;
        },
        `${a.metadata!.name} to report its limit`,
        { timeoutMs: 120_000, intervalMs: 250 },
      ).catch(() => undefined),
    ),
  );
  return messages[0];
}

const API_TOKEN = 'bench-containment-0123456789';

/**
 * `oam api` in a process of its own, against the same server (the runaways' definitions are
 * still in their namespaces): each runaway's preview, how long until it answers and with what,
 * then the API's RSS against its level before the first (after a healthy preview warmed it).
 */
async function previewRunaways(
  kubeconfig: string,
  dir: string,
  runaways: readonly Runaway[],
): Promise<BenchResult[]> {
  const tokensFile = join(dir, 'api-tokens.yaml');
  writeFileSync(tokensFile, stringify([{ token: API_TOKEN, namespaces: ['*'], verbs: ['*'] }]));
  const api = spawn(
    process.execPath,
    [
      join(projectRoot(), 'bin', 'oam.js'),
      'api',
      '--kubeconfig',
      kubeconfig,
      '--port',
      '0',
      '--auth',
      'tokens',
      '--tokens-file',
      tokensFile,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  api.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  api.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  try {
    const url = await eventually(
      () => {
        if (api.exitCode !== null) throw new Error(`oam api exited: ${out.slice(-2000)}`);
        return /listening on (\S+)/.exec(out)?.[1];
      },
      'the REST API to start',
      { timeoutMs: 120_000 },
    );
    const preview = async (app: KubeObject) => {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/v1/namespaces/${app.metadata!.namespace}/preview`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(app),
      });
      const body = (await res.json().catch(() => ({}))) as { message?: unknown };
      return { status: res.status, seconds: (performance.now() - t0) / 1000, body };
    };
    for (const app of [healthyApp('warm'), staticSiteApp('warm-site')]) {
      const warm = await preview(app);
      if (warm.status !== 200) throw new Error(`a healthy preview answered ${warm.status}`);
    }
    const rssBefore = rss(api.pid!);
    const results: BenchResult[] = [];
    for (const runaway of runaways.filter((r) => r.kind !== 'two-at-once')) {
      const answer = await preview(runaway.apps(`tenant-${runaway.kind}`)[0]);
      results.push({
        name: `REST API preview ${runaway.kind}: answered in`,
        value: answer.seconds,
        unit: 's',
        detail: `${answer.status}: ${JSON.stringify(answer.body.message ?? answer.body).slice(0, 160)}`,
      });
    }
    await preview(healthyApp('after')); // the pools serve again
    await preview(staticSiteApp('after-site'));
    await new Promise((r) => setTimeout(r, 3000)); // replaced workers' memory is returned as they exit
    results.push({
      name: 'REST API RSS after the runaway previews / before',
      value: rss(api.pid!) / rssBefore,
      unit: 'ratio',
      detail: `${(rss(api.pid!) / 2 ** 20).toFixed(0)} MiB after, ${(rssBefore / 2 ** 20).toFixed(0)} MiB before`,
    });
    return results;
  } finally {
    await stopChild(api);
  }
}

function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** `oam render` of each runaway: seconds until it answers, with its exit code and first error line. */
function renderRunaways(dir: string, runaways: readonly Runaway[]): BenchResult[] {
  return runaways
    .filter((r) => r.kind !== 'two-at-once')
    .map((runaway) => {
      const file = join(dir, `${runaway.kind}.yaml`);
      const docs = [...runaway.definitions('default'), ...runaway.apps('default')];
      writeFileSync(file, docs.map((d) => stringify(d)).join('---\n'));
      const t0 = performance.now();
      const run = spawnSync(process.execPath, [join(projectRoot(), 'bin', 'oam.js'), 'render', '-f', file], {
        encoding: 'utf8',
        maxBuffer: 64 * 2 ** 20,
      });
      const seconds = (performance.now() - t0) / 1000;
      const first = run.stderr.split('\n').find((l) => l.startsWith('error')) ?? '';
      return {
        name: `oam render ${runaway.kind}: answered in`,
        value: seconds,
        unit: 's',
        detail: `exit ${run.status}: ${first.slice(-160)}`,
      };
    });
}
