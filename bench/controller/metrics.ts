/**
 * What `bench controller` reads of the controller: its Prometheus /metrics, one sample per
 * series, and the series it reports on.
 */
const WRITES = new Set(['create', 'update', 'patch', 'delete']);

/** The controller's metrics, one sample per series. */
export async function scrape(port: number): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const sum = (m: Map<string, number>, prefix: string, filter: (series: string) => boolean = () => true) =>
  [...m].filter(([k]) => k.startsWith(prefix) && filter(k)).reduce((s, [, v]) => s + v, 0);
export const requests = (m: Map<string, number>) => sum(m, 'rest_client_requests_total{');
export const writes = (m: Map<string, number>) =>
  sum(m, 'rest_client_requests_total{', (k) => WRITES.has(/verb="([^"]+)"/.exec(k)?.[1] ?? ''));
export const reconciles = (m: Map<string, number>) =>
  sum(m, 'controller_runtime_reconcile_total{controller="application"');

/** Seconds the application controller's workers spent reconciling (the histogram's sum). */
export const reconcileSeconds = (m: Map<string, number>) =>
  sum(m, 'controller_runtime_reconcile_time_seconds_sum{', (k) => k.includes('controller="application"'));
/** Seconds the controller's API requests took, and how many, excluding watches. */
const notWatch = (series: string) => !series.includes('verb="watch"');
export const requestSeconds = (m: Map<string, number>) =>
  sum(m, 'rest_client_request_duration_seconds_sum{', notWatch);
export const requestCount = (m: Map<string, number>) =>
  sum(m, 'rest_client_request_duration_seconds_count{', notWatch);
export const cpuSeconds = (m: Map<string, number>) => m.get('process_cpu_seconds_total') ?? 0;
export const heap = (m: Map<string, number>) => m.get('nodejs_heap_size_used_bytes') ?? 0;
export const renderCacheEntries = (m: Map<string, number>) => m.get('oam_render_cache_entries') ?? 0;
export const renderCache = (m: Map<string, number>, result: 'hit' | 'miss') =>
  m.get(`oam_render_cache_lookups_total{result="${result}"}`) ?? 0;
