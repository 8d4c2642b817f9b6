/**
 * Runtime benchmarks: informer initial sync (10k / 50k objects), work queue
 * throughput, and reconcile latency from an object change to reconcile start.
 * Server-backed figures use the embedded API server (#kube-server) or, when
 * RUNTIME_KUBECONFIG is set, that cluster. The 50k sync uses an in-process
 * fake LIST source (labelled so): creating 50k objects over HTTP would exceed
 * the one-minute budget for benchmarks on these machines.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import {
  CONFIG_MAPS,
  KubeTransport,
  Manager,
  NAMESPACES,
  ResourceClient,
  SharedInformer,
  WorkQueue,
  silentLogger,
  type ListerWatcher,
} from '#runtime';
import { type KubeObject } from '#kube-core';
import { median, percentile, type BenchResult, type BenchSuite } from '../types.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A ConfigMap shaped like a small real object, managedFields included (the transform drops them). */
function fakeObject(i: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `cm-${i}`,
      namespace: `ns-${i % 20}`,
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
      creationTimestamp: '2026-01-01T00:00:00Z',
      labels: { app: `app-${i % 100}`, tier: 'web' },
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Apply',
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:data': { 'f:key': {} } },
        },
      ],
    },
    data: { key: `value-${i}`, config: 'x'.repeat(64) },
  };
}

/** In-process fake LIST source: pages are serialized and parsed like HTTP bodies; the watch just idles. */
function fakeListerWatcher(count: number): ListerWatcher<KubeObject> {
  return {
    async listAll(options) {
      const pageSize = options.pageSize || count;
      const items: KubeObject[] = [];
      for (let start = 0; start < count; start += pageSize) {
        const page = JSON.stringify({
          items: Array.from({ length: Math.min(pageSize, count - start) }, (_, j) => fakeObject(start + j)),
        });
        items.push(...(JSON.parse(page) as { items: KubeObject[] }).items);
        await new Promise((r) => setImmediate(r));
      }
      return { items, resourceVersion: String(1000 + count) };
    },
    watch: (options) =>
      new Promise((resolve) =>
        options.signal?.addEventListener('abort', () => resolve({ reason: 'aborted' }), { once: true }),
      ),
  };
}

/** One initial sync on a fresh informer: wall time until hasSynced, and heap growth per cached object. */
async function syncOnce(
  label: string,
  listerWatcher: ListerWatcher<KubeObject>,
  count: number,
): Promise<{ ms: number; bytesPerObject: number; size: number }> {
  const before = heapAfterGc();
  const informer = new SharedInformer<KubeObject>({ listerWatcher, name: label });
  const t0 = performance.now();
  informer.start();
  await informer.waitForSync();
  const ms = performance.now() - t0;
  const size = informer.indexer.size();
  if (size < count) throw new Error(`${label}: synced ${size} of ${count} objects`);
  const bytesPerObject = (heapAfterGc() - before) / size;
  await informer.stop();
  return { ms, bytesPerObject, size };
}

/** Median initial-sync time and heap per object over `runs` fresh informers. */
async function informerSync(
  label: string,
  listerWatcher: ListerWatcher<KubeObject>,
  count: number,
  runs: number,
): Promise<BenchResult[]> {
  const samples: Array<{ ms: number; bytesPerObject: number; size: number }> = [];
  for (let i = 0; i < runs; i++) samples.push(await syncOnce(label, listerWatcher, count));
  const ms = median(samples.map((x) => x.ms));
  const size = samples[0].size;
  return [
    {
      name: `informer initial sync ${label}`,
      value: ms,
      unit: 'ms',
      detail: `median of ${runs}; ${size} objects, ${Math.round(size / (ms / 1000))} objects/s`,
    },
    {
      name: `informer heap per object ${label}`,
      value: median(samples.map((x) => x.bytesPerObject)),
      unit: 'bytes',
      detail: `median of ${runs}; heap growth after GC / cached objects (managedFields dropped)`,
    },
  ];
}

/** Adds per second into one queue: 1M adds over 10k keys, so most adds are deduplicated. */
function queueAddsPerSecond(): number {
  const q = new WorkQueue<string>();
  const keys = Array.from({ length: 10_000 }, (_, i) => `ns/obj-${i}`);
  const t0 = performance.now();
  for (let i = 0; i < QUEUE_ADDS; i++) q.add(keys[i % keys.length]);
  const seconds = (performance.now() - t0) / 1000;
  q.shutDown();
  return QUEUE_ADDS / seconds;
}

/** Items per second through add → get → done with 4 concurrent workers, each yielding once per item like an async reconcile. */
async function queueProcessedPerSecond(): Promise<number> {
  const work = new WorkQueue<string>();
  let processed = 0;
  const worker = async (): Promise<void> => {
    for (let k = await work.get(); k !== undefined; k = await work.get()) {
      await Promise.resolve();
      processed++;
      work.done(k);
    }
  };
  const t0 = performance.now();
  const workers = [worker(), worker(), worker(), worker()];
  for (let i = 0; i < QUEUE_ITEMS; i++) work.add(`k${i}`);
  void work.shutDownWithDrain();
  await Promise.all(workers);
  if (processed !== QUEUE_ITEMS) throw new Error(`processed ${processed} of ${QUEUE_ITEMS}`);
  return processed / ((performance.now() - t0) / 1000);
}

const QUEUE_ADDS = 1_000_000;
const QUEUE_ITEMS = 200_000;
const QUEUE_RUNS = 5;

async function queueThroughput(): Promise<BenchResult[]> {
  const adds: number[] = [];
  const processed: number[] = [];
  for (let i = 0; i < QUEUE_RUNS; i++) {
    adds.push(queueAddsPerSecond());
    processed.push(await queueProcessedPerSecond());
  }
  return [
    {
      name: 'queue adds with dedup',
      value: median(adds),
      unit: 'adds/s',
      detail: `median of ${QUEUE_RUNS}; ${QUEUE_ADDS} adds over 10000 keys`,
    },
    {
      name: 'queue processing, 4 workers',
      value: median(processed),
      unit: 'items/s',
      detail: `median of ${QUEUE_RUNS}; ${QUEUE_ITEMS} distinct items, add+get+done`,
    },
  ];
}

interface Target {
  kubeConfig: KubeConfig;
  label: string;
  stop(): Promise<void>;
}

async function serverTarget(): Promise<Target> {
  if (process.env.RUNTIME_KUBECONFIG) {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(process.env.RUNTIME_KUBECONFIG);
    return { kubeConfig, label: 'kube-apiserver', stop: async () => undefined };
  }
  const { startServer } = await import('#kube-server');
  const stateDir = mkdtempSync(join(tmpdir(), 'runtime-bench-'));
  const srv = await startServer({ port: 0, stateDir });
  return {
    kubeConfig: srv.kubeConfig,
    label: 'embedded server',
    stop: async () => {
      await srv.stop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

async function createMany(
  client: ResourceClient,
  namespace: string,
  count: number,
  budgetMs: number,
): Promise<number> {
  let next = 0;
  const deadline = performance.now() + budgetMs;
  const worker = async (): Promise<void> => {
    while (next < count && performance.now() < deadline) {
      const i = next++;
      const {
        managedFields: _m,
        uid: _u,
        resourceVersion: _r,
        creationTimestamp: _c,
        ...metadata
      } = fakeObject(i).metadata!;
      await client.create({ ...fakeObject(i), metadata: { ...metadata, namespace } });
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return next;
}

async function serverBenches(): Promise<BenchResult[]> {
  const target = await serverTarget();
  const transport = new KubeTransport(target.kubeConfig, {
    qps: 5000,
    burst: 5000,
    registry: new Registry(),
  });
  const namespace = `bench-${Date.now().toString(36)}`;
  const namespaces = new ResourceClient(transport, NAMESPACES);
  await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const configMaps = new ResourceClient(transport, CONFIG_MAPS);
  const results: BenchResult[] = [];
  try {
    // Initial sync against the server: as many of 10k objects as 25 s of creating allows.
    const t0 = performance.now();
    const created = await createMany(configMaps, namespace, 10_000, 25_000);
    const createS = (performance.now() - t0) / 1000;
    const lw: ListerWatcher<KubeObject> = {
      listAll: (o) => configMaps.listAll({ ...o, namespace }),
      watch: (o, on) => configMaps.watch({ ...o, namespace }, on),
    };
    const sync = await informerSync(`${created} objects (${target.label})`, lw, created, 3);
    sync[0].detail += `; setup created ${Math.round(created / createS)} objects/s`;
    results.push(...sync);
    results.push(...(await reconcileLatency(target, namespace, configMaps)));
  } finally {
    await namespaces
      .delete(undefined, namespace)
      .catch((err: unknown) => process.stderr.write(`cleanup of ${namespace} failed: ${String(err)}\n`));
    transport.close();
    await target.stop();
  }
  return results;
}

/** Time from issuing an update to the start of the reconcile it causes (includes the update's round trip). */
async function reconcileLatency(
  target: Target,
  namespace: string,
  configMaps: ResourceClient,
): Promise<BenchResult[]> {
  const waiting = new Map<string, (t: number) => void>();
  const mgr = new Manager({
    kubeConfig: target.kubeConfig,
    namespace,
    logger: silentLogger,
    registry: new Registry(),
    transport: { qps: 5000, burst: 5000 },
  });
  mgr
    .controller('latency')
    .for(CONFIG_MAPS)
    .build({
      reconcile: async (r) => {
        waiting.get(r.name)?.(performance.now());
        waiting.delete(r.name);
      },
    });
  await mgr.start();
  const samples: number[] = [];
  try {
    await configMaps.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'latency', namespace },
      data: { n: '0' },
    });
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 1; i <= 200; i++) {
      const reconciled = new Promise<number>((resolve) => waiting.set('latency', resolve));
      const t0 = performance.now();
      await configMaps.patch(namespace, 'latency', { data: { n: String(i) } }, { type: 'merge' });
      samples.push((await reconciled) - t0);
    }
  } finally {
    await mgr.stop();
  }
  const what = `reconcile latency, change → reconcile start (${target.label})`;
  const detail = `${samples.length} sequential updates, timed from sending the PATCH (includes its round trip): an upper bound`;
  return [
    { name: `${what} p50`, value: percentile(samples, 50), unit: 'ms', detail },
    { name: `${what} p99`, value: percentile(samples, 99), unit: 'ms', detail },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  results.push(...(await queueThroughput()));
  results.push(
    ...(await informerSync(
      '10k objects (in-process fake LIST source)',
      fakeListerWatcher(10_000),
      10_000,
      5,
    )),
  );
  results.push(
    ...(await informerSync(
      '50k objects (in-process fake LIST source)',
      fakeListerWatcher(50_000),
      50_000,
      3,
    )),
  );
  results.push(...(await serverBenches()));
  return results;
}

export const suite: BenchSuite = { name: 'runtime', run };
