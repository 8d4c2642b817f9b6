import { Gauge, type Registry } from 'prom-client';
import type { Application } from '#api';
import type { Indexer } from '#runtime';

const NAME = 'oam_applications';

/**
 * `oam_applications{status="running"}`: Applications by `status.status`
 * (KubeVela's phase; `unknown` before the first reconcile), counted from the
 * informer cache when scraped, so it costs nothing between scrapes and no
 * API call. A restarted controller on the same registry replaces the gauge.
 */
export function registerApplicationMetrics(registry: Registry, applications: Indexer<Application>): void {
  registry.removeSingleMetric(NAME);
  new Gauge({
    name: NAME,
    help: 'Applications in the cache by status.status (unknown: not reconciled yet)',
    labelNames: ['status'],
    registers: [registry],
    collect() {
      this.reset();
      const counts = new Map<string, number>();
      for (const app of applications.list()) {
        const status = (app.status as { status?: string } | undefined)?.status ?? 'unknown';
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }
      for (const [status, n] of counts) this.set({ status }, n);
    },
  });
}
