import { Counter, Gauge, type Registry } from 'prom-client';
import type { RenderCache } from '#renderer';

const ENTRIES = 'oam_render_cache_entries';
const LOOKUPS = 'oam_render_cache_lookups_total';
const EXPIRED = 'oam_render_cache_expired_total';

/**
 * The render cache as the controller holds it: entries now, lookups by
 * result (hit or miss) and entries dropped for sitting idle, read from the
 * cache's own counters when scraped (nothing is counted twice on the render
 * path). A restarted controller on the same registry replaces them.
 */
export function registerRenderCacheMetrics(registry: Registry, cache: RenderCache): void {
  for (const name of [ENTRIES, LOOKUPS, EXPIRED]) registry.removeSingleMetric(name);
  new Gauge({
    name: ENTRIES,
    help: 'Template results held by the render cache',
    registers: [registry],
    collect() {
      this.set(cache.size);
    },
  });
  const reported = { hit: 0, miss: 0, expired: 0 };
  new Counter({
    name: LOOKUPS,
    help: 'Render cache lookups by result (a miss evaluates the template)',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.inc({ result: 'hit' }, cache.hits - reported.hit);
      this.inc({ result: 'miss' }, cache.misses - reported.miss);
      reported.hit = cache.hits;
      reported.miss = cache.misses;
    },
  });
  new Counter({
    name: EXPIRED,
    help: 'Render cache entries dropped after sitting unused for the idle time',
    registers: [registry],
    collect() {
      this.inc(cache.expired - reported.expired);
      reported.expired = cache.expired;
    },
  });
}
