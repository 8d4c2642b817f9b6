import { Counter, Gauge, type Registry } from 'prom-client';
import type { RendererHandle } from '#renderer';

const WORKERS = 'oam_template_workers';
const QUEUED = 'oam_template_evaluations_queued';
const REPLACED = 'oam_template_workers_replaced_total';

type Engine = keyof RendererHandle['stats'];
const ENGINES: Engine[] = ['cue', 'handlebars'];

/**
 * The template worker pools as an operator watches them for runaways: workers busy and idle,
 * evaluations waiting, and workers replaced (a template over its CPU-time or memory limit,
 * or a crash, ends its worker). Read from the pools' own counters when scraped.
 */
export function registerTemplateWorkerMetrics(registry: Registry, renderer: RendererHandle): void {
  for (const name of [WORKERS, QUEUED, REPLACED]) registry.removeSingleMetric(name);
  new Gauge({
    name: WORKERS,
    help: 'Template evaluation worker threads by engine and state (busy: evaluating now)',
    labelNames: ['engine', 'state'],
    registers: [registry],
    collect() {
      for (const engine of ENGINES) {
        const { workers, busy } = renderer.stats[engine];
        this.set({ engine, state: 'busy' }, busy);
        this.set({ engine, state: 'idle' }, workers - busy);
      }
    },
  });
  new Gauge({
    name: QUEUED,
    help: 'Template evaluations waiting for a worker, by engine',
    labelNames: ['engine'],
    registers: [registry],
    collect() {
      for (const engine of ENGINES) this.set({ engine }, renderer.stats[engine].queued);
    },
  });
  const reported: Record<Engine, number> = { cue: 0, handlebars: 0 };
  new Counter({
    name: REPLACED,
    help: 'Template workers ended and replaced (a limit hit, a crash), by engine',
    labelNames: ['engine'],
    registers: [registry],
    collect() {
      for (const engine of ENGINES) {
        const replaced = renderer.stats[engine].replaced;
        this.inc({ engine }, replaced - reported[engine]);
        reported[engine] = replaced;
      }
    },
  });
}
