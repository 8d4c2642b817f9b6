import { Injectable } from '@nestjs/common';
import { clusterVersionOf, createRenderer, type RendererHandle } from '#renderer';
import type { KubeTransport } from '#runtime';

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
    this.current = createRenderer({ cluster: { name: 'local', version: clusterVersionOf(version) } });
  }

  async close(): Promise<void> {
    await this.current?.close();
  }
}
