import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { loadBuiltinDefinitions } from '#definitions';
import { NoKindMatchError, type Controller } from '#runtime';
import {
  ACTORS,
  API_VERSION,
  APPLICATION_REVISIONS,
  APPLICATIONS,
  COMPONENT_DEFINITIONS,
  COMPONENTS,
  CONTROLLER_NAMESPACE,
  TRAIT_DEFINITIONS,
  TRAITS,
} from '#api';
import { CachedCatalog } from './definitions/cached-catalog.js';
import { ensureNamespace, installBuiltins } from './definitions/builtin-installer.js';
import { SchemaPublisher } from './definitions/schema-publisher.js';
import { registerApplicationMetrics } from './host/application-metrics.js';
import { Heartbeat } from './host/heartbeat.js';
import { OwnedWatches, routesTo } from './host/owned-watches.js';
import { ignoreStatusOnlyUpdates } from './host/predicates.js';
import { ManagerService } from './manager.service.js';
import { CONTROLLER_OPTIONS, type ResolvedOptions } from './options.js';
import { ApplicationReconciler } from './reconcile/application.reconciler.js';
import { ComponentReconciler } from './reconcile/component.reconciler.js';
import { applicationsUsing, DEFINITION_INDEX, definitionIndexFunc } from './join/definition-index.js';
import { cachedJoinSources } from './join/sources.js';
import {
  COMPONENT_REF_INDEX,
  componentRefIndexFunc,
  componentTypeIndexFunc,
  TRAIT_TARGET_INDEX,
  traitTargetIndexFunc,
  traitTypeIndexFunc,
  TYPE_INDEX,
} from './join/indexes.js';
import { oamWatches } from './join/watches.js';
import { TraitReconciler } from './reconcile/trait.reconciler.js';
import { RendererService } from './renderer.service.js';
import { REVISION_APP_INDEX, revisionAppIndexFunc } from './revisions/revision-store.js';
import { Revisions } from './revisions/revisions.js';

/** A problem the operator can fix (no CRDs, no access): reported as one line, never a stack. */
export class ControllerStartError extends Error {
  override name = 'ControllerStartError';
}

/**
 * Start-up and shutdown, in order: check the CRDs are served, install the
 * built-ins, declare the Application controller and its watches, start the
 * manager (caches sync first), heartbeat. Shutdown: heartbeat, manager
 * (in-flight reconciles finish), renderer workers.
 */
@Injectable()
export class ControllerRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  controller?: Controller;
  private heartbeat?: Heartbeat;

  constructor(
    @Inject(CONTROLLER_OPTIONS) private readonly options: ResolvedOptions,
    @Inject(ManagerService) private readonly managerService: ManagerService,
    @Inject(RendererService) private readonly rendererService: RendererService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { manager, mapper } = this.managerService;
    const log = manager.logger;
    try {
      await mapper.kindFor({ apiVersion: API_VERSION, kind: APPLICATIONS.kind });
    } catch (err) {
      if (err instanceof NoKindMatchError)
        throw new ControllerStartError(
          `the cluster does not serve ${API_VERSION} Applications: install the CRDs first (oam install, or kubectl apply -f deploy/crds/)`,
        );
      throw err;
    }
    await this.rendererService.start(manager.transport, manager.registry);
    if (this.options.installDefinitions)
      await installBuiltins(
        manager.client,
        await loadBuiltinDefinitions(),
        this.options.systemNamespace,
        log,
      );
    this.controller = this.declareController();
    this.declareSchemaPublishers();
    // The leader Lease lives there; deploy/ creates it, a bare cluster may not have it.
    if (this.options.leaderElection) await ensureNamespace(manager.client, CONTROLLER_NAMESPACE);
    await manager.start();
    this.heartbeat = new Heartbeat(manager.client, {
      namespace: CONTROLLER_NAMESPACE,
      version: this.options.version,
      intervalMs: this.options.heartbeatIntervalMs,
      log,
      active: () => manager.isLeader(),
    });
    await this.heartbeat.start();
    log.info('oam controller started', {
      systemNamespace: this.options.systemNamespace,
      watchNamespaces: this.options.watchNamespaces.length ? this.options.watchNamespaces : 'all',
      workers: this.options.workers,
      revisionLimit: this.options.revisionLimit,
      dependsOnTimeoutMs: this.options.dependsOnTimeoutMs,
      leaderElection: this.options.leaderElection ? 'campaigning' : 'off',
      metricsPort: manager.healthServerPort(),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.heartbeat?.stop();
    await this.managerService.manager.stop();
    await this.rendererService.close();
  }

  /** One small controller per definition kind: their parameter schemas as KubeVela's ConfigMaps. */
  private declareSchemaPublishers(): void {
    const { manager } = this.managerService;
    for (const kind of [COMPONENT_DEFINITIONS, TRAIT_DEFINITIONS]) {
      manager
        .controller(`${kind.kind.toLowerCase()}-schema`)
        .for(kind)
        .withOptions({ workers: 1 })
        .build(new SchemaPublisher(manager.client, kind, () => this.rendererService.handle));
    }
  }

  /**
   * The Application, Component and Trait controllers over shared informers
   * (Applications indexed by definitions and componentRefs, Components and
   * Traits by type, Traits by target), each change mapped to what it concerns.
   */
  private declareController(): Controller {
    const { manager, mapper } = this.managerService;
    const informers = manager.informers;
    const system = this.options.systemNamespace;
    const apps = informers.informerFor(APPLICATIONS, {
      indexers: { [DEFINITION_INDEX]: definitionIndexFunc, [COMPONENT_REF_INDEX]: componentRefIndexFunc },
    });
    registerApplicationMetrics(manager.registry, apps.indexer);
    const components = informers.informerFor(COMPONENTS, {
      indexers: { [TYPE_INDEX]: componentTypeIndexFunc },
    });
    const traits = informers.informerFor(TRAITS, {
      indexers: { [TYPE_INDEX]: traitTypeIndexFunc, [TRAIT_TARGET_INDEX]: traitTargetIndexFunc },
    });
    informers.informerFor(APPLICATION_REVISIONS, {
      indexers: { [REVISION_APP_INDEX]: revisionAppIndexFunc },
    });
    const componentDefinitions = informers.informerFor(COMPONENT_DEFINITIONS);
    const traitDefinitions = informers.informerFor(TRAIT_DEFINITIONS);
    const scope = new Set(this.options.watchNamespaces);
    const inScope = (ns: string) => scope.size === 0 || scope.has(ns);
    const catalog = new CachedCatalog(componentDefinitions.indexer, traitDefinitions.indexer, system);
    const caches = { apps: apps.indexer, components: components.indexer, traits: traits.indexer };
    const sources = cachedJoinSources(caches, catalog);
    // The watches are added while reconciling, so they enqueue into the controllers built below.
    const built: { apps?: Controller; components?: Controller } = {};
    // Only the owner's reconciler is queued; an object without an owner reference may be either's.
    const watches = new OwnedWatches(informers, [apps, components], (r, owner, priority) => {
      if (routesTo(owner, APPLICATIONS.kind)) built.apps?.enqueue(r, priority);
      if (routesTo(owner, COMPONENTS.kind)) built.components?.enqueue(r, priority);
    });
    const events = manager.eventRecorder(ACTORS.controller);
    const deps = {
      client: manager.client,
      mapper,
      renderer: this.rendererService.handle,
      catalog,
      events,
      watches,
      inScope,
      sources,
      revisions: new Revisions({
        client: manager.client,
        events,
        systemNamespace: system,
        limit: this.options.revisionLimit,
        log: manager.logger,
      }),
      dependsOnTimeoutMs: this.options.dependsOnTimeoutMs,
      clock: this.options.clock,
      workflow: this.options.workflow,
    };
    const maps = oamWatches(caches, system);
    const users = applicationsUsing((v) => apps.indexer.byIndex(DEFINITION_INDEX, v), system);
    const spec = { predicates: [ignoreStatusOnlyUpdates] };
    built.apps = manager
      .controller('application')
      .for(APPLICATIONS, spec)
      .watches(APPLICATIONS, maps.application.applications, spec)
      .watches(COMPONENTS, maps.application.components, spec)
      .watches(TRAITS, maps.application.traits, spec)
      .watches(COMPONENT_DEFINITIONS, users)
      .watches(TRAIT_DEFINITIONS, users)
      .watches(COMPONENT_DEFINITIONS, maps.application.componentDefinitions)
      .watches(TRAIT_DEFINITIONS, maps.application.traitDefinitions)
      .withOptions({ workers: this.options.workers })
      .build(new ApplicationReconciler(deps));
    built.components = manager
      .controller('component')
      .for(COMPONENTS, spec)
      .watches(APPLICATIONS, maps.component.applications) // status too: it mirrors the renderer's
      .watches(TRAITS, maps.component.traits, spec)
      .watches(COMPONENT_DEFINITIONS, maps.component.componentDefinitions)
      .watches(TRAIT_DEFINITIONS, maps.component.traitDefinitions)
      .withOptions({ workers: Math.max(1, Math.ceil(this.options.workers / 2)) })
      .build(new ComponentReconciler(deps));
    manager
      .controller('trait')
      .for(TRAITS, spec)
      .watches(TRAITS, maps.trait.traits, spec)
      .watches(APPLICATIONS, maps.trait.applications) // status too: Applied and Healthy mirror the target's
      .watches(COMPONENTS, maps.trait.components)
      .watches(TRAIT_DEFINITIONS, maps.trait.traitDefinitions)
      .withOptions({ workers: 1 })
      .build(new TraitReconciler({ client: manager.client, sources, inScope }));
    return built.apps;
  }
}
