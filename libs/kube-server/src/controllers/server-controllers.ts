/**
 * The server's own controllers — the garbage collector, the namespace
 * controller and the CRD clean-up — on libs/runtime: informers over the store
 * (StoreInformers), one rate-limited work queue and worker per controller
 * (runtime Controller), reconciles by request. Objects of every resource are
 * watched: each controller maps events to its requests.
 */
import { Controller, type Reconciler, type Request } from '#runtime';
import type { Core } from '../core.js';
import { BUILTIN_RESOURCES, storageKey } from '../resources/builtin.js';
import { CRD_KEY } from '../resources/crds.js';
import { CrdCleanupController, customResourceKey } from './crd-cleanup.js';
import { GarbageCollector, type GcActions } from './gc.js';
import { NamespaceController } from './namespaces.js';
import { StoreInformers, runtimeLogger } from './store-informers.js';

export class ServerControllers {
  readonly gc: GarbageCollector;
  readonly namespaces: NamespaceController;
  readonly crdCleanup: CrdCleanupController;
  private readonly informers: StoreInformers;
  private readonly controllers: Controller[] = [];
  private stopped = false;

  constructor(
    private readonly core: Core,
    actions: GcActions,
  ) {
    this.informers = new StoreInformers(core.store, core.log);
    this.gc = new GarbageCollector(core, actions);
    this.namespaces = new NamespaceController(core, actions);
    this.crdCleanup = new CrdCleanupController(core, actions);
    const gc = this.controller('garbage-collector', this.gc);
    const namespaces = this.controller('namespace', this.namespaces);
    const crds = this.controller('crd-cleanup', this.crdCleanup);
    this.informers.onEveryResource(() => this.gc.handler(gc));
    this.informers.onEveryResource((resource) => this.namespaces.handler(resource, namespaces));
    this.informers.onEveryResource((resource) => this.crdCleanup.handler(resource, crds));
    // Custom resources are watched once their CRD is seen.
    this.informers.onEveryResource((resource) =>
      resource === CRD_KEY ? { onAdd: () => this.watchAll(), onUpdate: () => this.watchAll() } : {},
    );
  }

  /** Starts watching (built-in resources, whatever the store holds, custom resources) and the workers. */
  start(): void {
    this.watchAll();
    this.informers.start();
    for (const c of this.controllers) c.start();
  }

  /** Resolves once every informer has delivered what the store committed and no request is queued or running. */
  async idle(): Promise<void> {
    while (!this.quiet()) await new Promise((r) => setImmediate(r));
  }

  /** Finishes queued work, then stops the workers and the informers. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.idle();
    this.stopped = true;
    await Promise.all(this.controllers.map((c) => c.stop()));
    await this.informers.stop();
  }

  private quiet(): boolean {
    if (this.stopped) return true;
    return (
      this.informers.quiet() && this.controllers.every((c) => !c.queue.len() && !c.queue.processingCount())
    );
  }

  private controller(name: string, reconciler: Reconciler): (request: Request) => void {
    const controller = new Controller({
      name,
      reconciler,
      // Reconciles here are synchronous store work: nothing to time out.
      reconcileTimeoutMs: 0,
      logger: runtimeLogger(this.core.log),
    });
    this.controllers.push(controller);
    return (request) => controller.enqueue(request);
  }

  private watchAll(): void {
    const resources = new Set<string>();
    for (const r of BUILTIN_RESOURCES) if (!r.virtual && !r.storage) resources.add(storageKey(r));
    for (const key of this.core.store.resourceKeys()) resources.add(key);
    for (const crd of this.core.store.list(CRD_KEY)) resources.add(customResourceKey(crd.object));
    for (const resource of resources) this.informers.ensure(resource);
  }
}
