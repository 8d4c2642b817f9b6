import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  ACTORS,
  APPLICATION_REVISIONS,
  APPLICATIONS,
  COMPONENT_DEFINITIONS,
  COMPONENTS,
  FIELD_MANAGERS,
  SCHEMA_CONFIGMAP_LABEL,
  TRAIT_DEFINITIONS,
  TRAITS,
} from '#api';
import type { KubeObject } from '#kube-core';
import { clusterVersionOf, createRenderer, type RendererHandle } from '#renderer';
import {
  CONFIG_MAPS,
  EVENTS,
  jsonLogger,
  Manager,
  NAMESPACES,
  ResourceClient,
  RestMapper,
  SharedInformer,
  type ResourceKind,
} from '#runtime';
import { API_OPTIONS, type ResolvedApiOptions } from '../options.js';

/** The kinds every request reads, cached from the start (others, e.g. a Deployment's, on first use). */
const CACHED: ResourceKind[] = [
  APPLICATIONS,
  COMPONENT_DEFINITIONS,
  TRAIT_DEFINITIONS,
  APPLICATION_REVISIONS,
  COMPONENTS,
  TRAITS,
  NAMESPACES,
  EVENTS,
];

/**
 * The cluster as the API sees it: informer caches (the only source of every
 * read), the client that writes as field manager `oam-api`, the REST mapper
 * and a renderer for previews and validation, rendering for the cluster's
 * real version. Started once before the API listens; stopped last.
 */
@Injectable()
export class ClusterService implements OnApplicationShutdown {
  readonly manager: Manager;
  readonly mapper: RestMapper;
  /** Only the definitions' schema ConfigMaps (by their label), not every ConfigMap of the cluster. */
  readonly schemaConfigMaps: SharedInformer<KubeObject>;
  private rendererHandle?: RendererHandle;

  constructor(@Inject(API_OPTIONS) readonly options: ResolvedApiOptions) {
    this.manager = new Manager({
      kubeConfig: options.kubeConfig,
      fieldManager: FIELD_MANAGERS.api,
      logger: options.logger ?? jsonLogger({ fields: { logger: ACTORS.api } }),
      registry: options.registry,
      transport: { qps: options.qps, burst: options.burst },
      // Also bounds a kind first read by /resources that the API may not list (then reported there).
      cacheSyncTimeoutMs: 30_000,
    });
    this.mapper = new RestMapper(this.manager.transport);
    for (const kind of CACHED) this.manager.informers.informerFor(kind);
    this.schemaConfigMaps = new SharedInformer<KubeObject>({
      listerWatcher: new ResourceClient(this.manager.transport, CONFIG_MAPS),
      name: 'configmaps/v1 (definition schemas)',
      labelSelector: SCHEMA_CONFIGMAP_LABEL,
      logger: this.manager.logger,
    });
  }

  get renderer(): RendererHandle {
    if (!this.rendererHandle) throw new Error('the renderer is used before the API started');
    return this.rendererHandle;
  }

  informer<T extends KubeObject>(kind: ResourceKind<T>): SharedInformer<T> {
    return this.manager.informers.informerFor(kind);
  }

  /** Resolves once every cache has synced; throws when the cluster does not answer. */
  async start(): Promise<void> {
    const version = await this.manager.transport.request<{
      major: string;
      minor: string;
      gitVersion: string;
    }>({ verb: 'get', method: 'GET', path: '/version' });
    this.rendererHandle = createRenderer({
      poolSize: 1,
      timeoutMs: this.options.evalTimeoutMs,
      cluster: { name: 'local', version: clusterVersionOf(version) },
      longRunning: true,
      cpuLimitMs: this.options.evalCpuLimitMs,
      memoryLimitBytes: this.options.evalMemoryLimitBytes,
    });
    this.schemaConfigMaps.start();
    await this.manager.start();
    await this.schemaConfigMaps.waitForSync(AbortSignal.timeout(120_000));
  }

  isReady(): boolean {
    return this.manager.informers.hasSynced() && this.schemaConfigMaps.hasSynced();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.manager.stop();
    await this.schemaConfigMaps.stop();
    await this.rendererHandle?.close();
    this.manager.transport.close();
  }
}
