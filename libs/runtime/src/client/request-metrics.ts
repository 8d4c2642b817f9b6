import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Per-verb API request metrics (client-go's rest_client_* family). */
export interface RequestMetrics {
  requests: Counter<'verb' | 'code'>;
  duration: Histogram<'verb'>;
  rateLimiterWait: Histogram<'verb'>;
  /** Streams (watches) whose response has started and not yet ended. */
  openStreams: Gauge<'verb'>;
}

const perRegistry = new WeakMap<Registry, RequestMetrics>();

export function requestMetrics(registry: Registry): RequestMetrics {
  const existing = perRegistry.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const metrics: RequestMetrics = {
    requests: new Counter({
      name: 'rest_client_requests_total',
      help: 'Number of HTTP requests to the API server, by verb and status code (0 = no answer)',
      labelNames: ['verb', 'code'],
      registers,
    }),
    duration: new Histogram({
      name: 'rest_client_request_duration_seconds',
      help: 'Request latency until the response headers arrived, by verb',
      labelNames: ['verb'],
      buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
      registers,
    }),
    rateLimiterWait: new Histogram({
      name: 'rest_client_rate_limiter_duration_seconds',
      help: 'Time requests waited for the client-side rate limiter, by verb',
      labelNames: ['verb'],
      buckets: [0.001, 0.01, 0.1, 0.5, 1, 5, 15, 60],
      registers,
    }),
    openStreams: new Gauge({
      name: 'rest_client_open_streams',
      help: 'Streaming requests (watches) open now, by verb',
      labelNames: ['verb'],
      registers,
    }),
  };
  perRegistry.set(registry, metrics);
  return metrics;
}
