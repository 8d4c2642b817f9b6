import { ResourceClient } from '../client/resource-client.js';
import { kindId, type ResourceKind } from '../client/resource-kind.js';
import type { KubeTransport } from '../client/transport.js';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import type { KubeObject } from '#kube-core';
import { SharedInformer, type SharedInformerOptions } from './shared-informer.js';
import type { IndexFunc } from './store.js';

export type InformerDefaults = Omit<
  SharedInformerOptions<KubeObject>,
  'listerWatcher' | 'name' | 'indexers' | 'logger'
>;

/**
 * Hands out one SharedInformer per kind (and namespace scope) for the whole
 * process, so every controller reading Deployments shares one cache and one
 * watch. Informers asked for after `start()` start at once.
 */
export class InformerFactory {
  private readonly informers = new Map<string, SharedInformer<KubeObject>>();
  private started = false;
  private readonly log: Logger;

  constructor(
    readonly transport: KubeTransport,
    private readonly defaults: InformerDefaults & { logger?: Logger } = {},
  ) {
    this.log = defaults.logger ?? silentLogger;
  }

  informerFor<T extends KubeObject = KubeObject>(
    kind: ResourceKind,
    options: { indexers?: Record<string, IndexFunc<T>> } = {},
  ): SharedInformer<T> {
    const id = `${kindId(kind)}@${this.defaults.namespace ?? '*'}`;
    let informer = this.informers.get(id) as SharedInformer<T> | undefined;
    if (!informer) {
      informer = new SharedInformer<T>({
        ...(this.defaults as InformerDefaults),
        transform: this.defaults.transform as SharedInformerOptions<T>['transform'],
        listerWatcher: new ResourceClient<T>(this.transport, kind),
        name: kindId(kind),
        logger: this.log,
      });
      this.informers.set(id, informer as unknown as SharedInformer<KubeObject>);
      if (this.started) informer.start();
    }
    for (const [name, fn] of Object.entries(options.indexers ?? {})) informer.addIndexer(name, fn);
    return informer;
  }

  start(): void {
    this.started = true;
    for (const i of this.informers.values()) i.start();
  }

  hasSynced(): boolean {
    return [...this.informers.values()].every((i) => i.hasSynced());
  }

  /** Waits until every informer has synced; throws naming the ones that did not within `timeoutMs`. */
  async waitForCacheSync(timeoutMs = 120_000, signal?: AbortSignal): Promise<void> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const results = await Promise.all([...this.informers.values()].map((i) => i.waitForSync(both)));
    if (results.every(Boolean)) return;
    const pending = [...this.informers.values()].filter((i) => !i.hasSynced()).map((i) => i.name);
    throw new Error(`caches not synced within ${timeoutMs} ms: ${pending.join(', ')}`);
  }

  list(): SharedInformer<KubeObject>[] {
    return [...this.informers.values()];
  }

  async stop(): Promise<void> {
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}
