import { Inject, Injectable } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { clusterVersionOf, createRenderer, type RendererHandle } from '#renderer';
import type { KubeTransport } from '#runtime';
import { registerRenderCacheMetrics } from './host/render-cache-metrics.js';
import { registerTemplateWorkerMetrics } from './host/template-worker-metrics.js';
import { CONTROLLER_OPTIONS, type ResolvedOptions } from './options.js';

/** Template results the controller keeps: enough for 5,000 apps of 3 templates (a few KB each). */
const RENDER_CACHE_ENTRIES = 15_000;
/**
 * A template result unused this long is dropped. An application is rendered
 * while it converges and then not again until something changes (a settled
 * reconcile renders nothing), so at rest the cache would only hold memory:
 * ~40 KiB per app of webservice + scaler + gateway.
 */
export const RENDER_CACHE_IDLE_MS = 60_000;

/**
 * One renderer (CUE workers, template and render caches) for every
 * reconcile, rendering for the cluster's real version (templates pick API
 * versions by it, e.g. autoscaling/v2 from 1.23). Started by the runner once
 * the server answered, closed by it last.
 */
@Injectable()
export class RendererService {
  private current?: RendererHandle;

  constructor(
    @Inject(CONTROLLER_OPTIONS)
    private readonly options: Pick<ResolvedOptions, 'clock' | 'evalCpuLimitMs' | 'evalMemoryLimitBytes'>,
  ) {}

  get handle(): RendererHandle {
    if (!this.current) throw new Error('the renderer is used before the controller started it');
    return this.current;
  }

  async start(transport: KubeTransport, registry: Registry): Promise<void> {
    const version = await transport.request<{
      major: string;
      minor: string;
      gitVersion: string;
      platform?: string;
    }>({
      verb: 'get',
      method: 'GET',
      path: '/version',
    });
    this.current = createRenderer({
      cluster: { name: 'local', version: clusterVersionOf(version) },
      // One result per template of every app held (3 for a webservice with two traits): at the
      // renderer's default 2,000, 1,000 apps evicted each other's and every reconcile re-ran CUE.
      cacheEntries: RENDER_CACHE_ENTRIES,
      cacheIdleMs: RENDER_CACHE_IDLE_MS,
      clock: this.options.clock,
      longRunning: true,
      cpuLimitMs: this.options.evalCpuLimitMs,
      memoryLimitBytes: this.options.evalMemoryLimitBytes,
    });
    registerRenderCacheMetrics(registry, this.current.renderer.cache);
    registerTemplateWorkerMetrics(registry, this.current);
  }

  async close(): Promise<void> {
    await this.current?.close();
  }
}
