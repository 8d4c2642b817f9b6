import { Injectable } from '@nestjs/common';
import { clusterVersionOf, createRenderer, type RendererHandle } from '#renderer';
import type { KubeTransport } from '#runtime';

/** Template results the controller keeps: enough for 5,000 apps of 3 templates (a few KB each). */
const RENDER_CACHE_ENTRIES = 15_000;

/**
 * One renderer (CUE workers, template and render caches) for every
 * reconcile, rendering for the cluster's real version (templates pick API
 * versions by it, e.g. autoscaling/v2 from 1.23). Started by the runner once
 * the server answered, closed by it last.
 */
@Injectable()
export class RendererService {
  private current?: RendererHandle;

  get handle(): RendererHandle {
    if (!this.current) throw new Error('the renderer is used before the controller started it');
    return this.current;
  }

  async start(transport: KubeTransport): Promise<void> {
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
    });
  }

  async close(): Promise<void> {
    await this.current?.close();
  }
}
