import type { Clock, KubeObject } from '#kube-core';
import type { InformerFactory } from '../cache/informer-factory.js';
import { kindId, type ResourceKind } from '../client/resource-kind.js';
import type { Registry } from 'prom-client';
import type { Logger } from '../log/logger.js';
import { Controller, type ControllerOptions } from './controller.js';
import { enqueueingHandler, requestForObject, requestForOwner, type MapFunc } from './handlers.js';
import type { Predicate } from './predicates.js';
import type { Reconciler } from './reconciler.js';

/** Raised by `build()` when the builder was used wrongly; lists every problem at once. */
export class BuilderError extends Error {
  constructor(
    readonly controller: string,
    readonly problems: string[],
  ) {
    super(`controller "${controller}" is misconfigured:\n  - ${problems.join('\n  - ')}`);
    this.name = 'BuilderError';
  }
}

interface Watch {
  kind: ResourceKind;
  map?: MapFunc;
  predicates: Predicate[];
  role: 'for' | 'owns' | 'watches';
}

/** Where built controllers are registered (the Manager). */
export interface ControllerHost {
  readonly informers: InformerFactory;
  readonly registry?: Registry;
  readonly logger?: Logger;
  /** Passed to every controller built here; default the wall clock. */
  readonly clock?: Clock;
  addController(controller: Controller): void;
}

type Tunables = Pick<ControllerOptions, 'workers' | 'reconcileTimeoutMs' | 'rateLimiter'>;

/**
 * Declares what a controller watches and how events become requests
 * (controller-runtime builder.ControllerManagedBy(mgr).For().Owns().Watches()).
 * Nothing is wired until `build()`, which reports all misuse at once.
 */
export class ControllerBuilder {
  private readonly watched: Watch[] = [];
  private readonly globalPredicates: Predicate[] = [];
  private reconciler?: Reconciler;
  private tunables: Tunables = {};
  private controllerName?: string;

  constructor(private readonly host: ControllerHost) {}

  named(name: string): this {
    this.controllerName = name;
    return this;
  }

  /** The primary kind: each of its objects is one request. Exactly one `for` per controller. */
  for(kind: ResourceKind, options: { predicates?: Predicate[] } = {}): this {
    this.watched.push({ kind, predicates: options.predicates ?? [], role: 'for' });
    return this;
  }

  /** A kind the primary kind creates: changes enqueue the owner named in ownerReferences (controller: true). */
  owns(kind: ResourceKind, options: { predicates?: Predicate[] } = {}): this {
    this.watched.push({ kind, predicates: options.predicates ?? [], role: 'owns' });
    return this;
  }

  /** Any kind, mapped to requests by `map` (typically through an index of the primary kind's cache). */
  watches<T extends KubeObject>(
    kind: ResourceKind<T>,
    map: MapFunc<T>,
    options: { predicates?: Predicate<T>[] } = {},
  ): this {
    this.watched.push({
      kind,
      map: map as MapFunc,
      predicates: (options.predicates ?? []) as Predicate[],
      role: 'watches',
    });
    return this;
  }

  /** Predicates applied to every watched kind. */
  withEventFilter(...predicates: Predicate[]): this {
    this.globalPredicates.push(...predicates);
    return this;
  }

  withOptions(tunables: Tunables): this {
    this.tunables = { ...this.tunables, ...tunables };
    return this;
  }

  /** Validates, creates the controller, registers its informer handlers and adds it to the host. */
  build(reconciler?: Reconciler): Controller {
    this.reconciler = reconciler ?? this.reconciler;
    const fors = this.watched.filter((w) => w.role === 'for');
    const name = this.controllerName ?? (fors[0] ? fors[0].kind.kind.toLowerCase() : '<unnamed>');
    const problems: string[] = [];
    if (fors.length === 0) problems.push('no primary kind: call .for(kind) once');
    if (fors.length > 1)
      problems.push(
        `.for() called ${fors.length} times (${fors.map((w) => kindId(w.kind)).join(', ')}); a controller reconciles exactly one kind`,
      );
    if (!this.reconciler || typeof this.reconciler.reconcile !== 'function')
      problems.push('no reconciler: pass an object with reconcile(request, context) to build()');
    for (const w of this.watched) {
      if (!w.kind?.plural || !w.kind.version || !w.kind.kind)
        problems.push(
          `.${w.role}() got an incomplete kind ${JSON.stringify(w.kind)}: need group, version, plural, kind, namespaced`,
        );
      if (w.role === 'watches' && typeof w.map !== 'function')
        problems.push(`.watches(${kindId(w.kind)}) needs a map function from object to requests`);
    }
    const owned = this.watched.filter((w) => w.role === 'owns');
    if (fors.length === 1 && fors[0].kind.namespaced) {
      for (const w of owned)
        if (!w.kind.namespaced)
          problems.push(
            `.owns(${kindId(w.kind)}): a cluster-scoped object cannot be owned by namespaced ${kindId(fors[0].kind)}`,
          );
    }
    const workers = this.tunables.workers;
    if (workers !== undefined && (!Number.isInteger(workers) || workers < 1))
      problems.push(`workers must be a positive integer, got ${workers}`);
    if (problems.length) throw new BuilderError(name, problems);

    const controller = new Controller({
      ...this.tunables,
      name,
      reconciler: this.reconciler!,
      registry: this.host.registry,
      logger: this.host.logger,
      clock: this.host.clock,
    });
    // Registered first: if the host refuses it (duplicate name, manager already started), no
    // informer is created and no handler is left enqueueing into a controller that never runs.
    this.host.addController(controller);
    const primary = fors[0].kind;
    const enqueue = (r: { namespace: string; name: string }, priority: number): void =>
      controller.enqueue(r, priority);
    for (const w of this.watched) {
      const map = w.role === 'for' ? requestForObject : w.role === 'owns' ? requestForOwner(primary) : w.map!;
      const informer = this.host.informers.informerFor(w.kind);
      informer.addEventHandler(enqueueingHandler(map, [...this.globalPredicates, ...w.predicates], enqueue));
    }
    return controller;
  }
}
