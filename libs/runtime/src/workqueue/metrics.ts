import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The workqueue metric family controller-runtime exposes, labelled by queue name. */
export interface QueueMetrics {
  depth: Gauge<'name'>;
  adds: Counter<'name'>;
  queueDuration: Histogram<'name'>;
  workDuration: Histogram<'name'>;
  retries: Counter<'name'>;
  longestRunning: Gauge<'name'>;
  unfinishedWork: Gauge<'name'>;
}

const perRegistry = new WeakMap<Registry, QueueMetrics>();
/** Queues register a callback here so the longest-running gauges are computed at scrape time. */
const scrapeHooks = new WeakMap<Registry, Set<() => void>>();

const buckets = [1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1000];

/** One metric set per registry (prom-client refuses to register a name twice). */
export function queueMetrics(registry: Registry): QueueMetrics {
  const existing = perRegistry.get(registry);
  if (existing) return existing;
  const hooks = new Set<() => void>();
  scrapeHooks.set(registry, hooks);
  const registers = [registry];
  const labelNames = ['name'] as const;
  const metrics: QueueMetrics = {
    depth: new Gauge({ name: 'workqueue_depth', help: 'Current depth of workqueue', labelNames, registers }),
    adds: new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames,
      registers,
    }),
    queueDuration: new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames,
      buckets,
      registers,
    }),
    workDuration: new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes',
      labelNames,
      buckets,
      registers,
    }),
    retries: new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames,
      registers,
    }),
    longestRunning: new Gauge({
      name: 'workqueue_longest_running_processor_seconds',
      help: 'How many seconds has the longest running processor for workqueue been running',
      labelNames,
      registers,
      collect: () => hooks.forEach((h) => h()),
    }),
    unfinishedWork: new Gauge({
      name: 'workqueue_unfinished_work_seconds',
      help: 'How many seconds of work has been done that is in progress and has not been observed by work_duration',
      labelNames,
      registers,
    }),
  };
  perRegistry.set(registry, metrics);
  return metrics;
}

export function onScrape(registry: Registry, hook: () => void): () => void {
  queueMetrics(registry);
  const hooks = scrapeHooks.get(registry)!;
  hooks.add(hook);
  return () => hooks.delete(hook);
}
