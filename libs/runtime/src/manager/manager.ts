import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { type Clock, type KubeObject, realClock } from '#kube-core';
import { InformerFactory, type InformerDefaults } from '../cache/informer-factory.js';
import { Client } from '../client/cached-client.js';
import { ResourceClient } from '../client/resource-client.js';
import { EVENTS, LEASES, type ResourceKind } from '../client/resource-kind.js';
import { KubeTransport, type TransportOptions } from '../client/transport.js';
import type { RestMapper } from '../client/rest-mapper.js';
import { ControllerBuilder, type ControllerHost } from '../controller/builder.js';
import type { Controller } from '../controller/controller.js';
import { EventRecorder } from '../events/event-recorder.js';
import { jsonLogger, type Logger } from '../log/logger.js';
import { HealthServer } from './health-server.js';
import { LeaderElector } from './leader-election.js';

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  /** Default: hostname + random suffix (unique per process). */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
}

export interface ManagerOptions {
  kubeConfig: KubeConfig;
  /** Restrict every cache to one namespace; default all namespaces. */
  namespace?: string;
  /** Field manager for server-side apply through `client`. */
  fieldManager?: string;
  logger?: Logger;
  /** Default: a new registry with Node's default metrics. */
  registry?: Registry;
  transport?: Omit<TransportOptions, 'registry'>;
  informers?: Omit<InformerDefaults, 'namespace'>;
  /** Serve /healthz, /readyz, /metrics; omitted = no server. Use port 0 for a random port. */
  health?: { port: number; host?: string };
  leaderElection?: LeaderElectionOptions;
  cacheSyncTimeoutMs?: number;
  /** Stop on SIGTERM/SIGINT (default false: hosts such as NestJS often own the signals). */
  handleSignals?: boolean;
  /**
   * Time for everything the manager creates: the transport (rate limit,
   * request timeouts), informers (re-list backoff, resync), controllers (work
   * queues, backoff, reconcile timeouts), leader election and event
   * timestamps. Default: the wall clock.
   */
  clock?: Clock;
}

type Phase = 'new' | 'starting' | 'running' | 'stopping' | 'stopped';

/**
 * Runs controllers against shared caches (controller-runtime manager.Manager).
 *
 * start(): health server → informers → wait for every cache to sync → (if
 * leader election) campaign → controllers start once leading.
 * stop(): controllers finish in-flight reconciles → lease released →
 * informers stop → pending events flushed → health server closes.
 * A replica that loses its lease stops its controllers at once (in-flight
 * reconciles are aborted) and the manager stops; `done` then resolves with
 * the reason, so the host can exit and be restarted, like controller-runtime.
 */
export class Manager implements ControllerHost {
  readonly transport: KubeTransport;
  readonly informers: InformerFactory;
  readonly client: Client;
  /** Discovery-backed: apiVersion + kind → resource and scope (shared by the client and informers). */
  readonly mapper: RestMapper;
  readonly registry: Registry;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Resolves when the manager has stopped, with why. */
  readonly done: Promise<'stopped' | 'lost leadership'>;
  private resolveDone!: (why: 'stopped' | 'lost leadership') => void;
  private readonly controllers: Controller[] = [];
  private readonly recorders: EventRecorder[] = [];
  private readonly health?: HealthServer;
  private healthPort?: number;
  private elector?: LeaderElector;
  private electionAbort = new AbortController();
  private election?: Promise<void>;
  private phase: Phase = 'new';
  private controllersRunning = false;
  private readonly onSignal = (): void => void this.stop();

  constructor(private readonly options: ManagerOptions) {
    this.logger = options.logger ?? jsonLogger();
    this.clock = options.clock ?? realClock;
    this.registry = options.registry ?? defaultRegistry();
    this.transport = new KubeTransport(options.kubeConfig, {
      clock: this.clock,
      ...options.transport,
      registry: this.registry,
    });
    this.informers = new InformerFactory(this.transport, {
      clock: this.clock,
      ...options.informers,
      namespace: options.namespace,
      logger: this.logger,
    });
    this.mapper = this.informers.mapper;
    this.client = new Client(
      this.informers,
      options.fieldManager ?? 'oam-runtime',
      options.cacheSyncTimeoutMs,
    );
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    if (options.health) {
      this.health = new HealthServer(
        {
          healthy: () => this.phase === 'starting' || this.phase === 'running',
          ready: () => this.phase === 'running' && this.informers.hasSynced(),
          leader: () => (!this.elector ? 'disabled' : this.elector.isLeader() ? 'leader' : 'standby'),
        },
        this.registry,
      );
    }
  }

  /** Starts declaring a controller; `build(reconciler)` registers it here. */
  controller(name?: string): ControllerBuilder {
    const b = new ControllerBuilder(this);
    return name ? b.named(name) : b;
  }

  addController(controller: Controller): void {
    if (this.controllers.some((c) => c.name === controller.name))
      throw new Error(`a controller named "${controller.name}" is already registered`);
    if (this.phase !== 'new')
      throw new Error(
        `controller "${controller.name}" added after the manager started; build controllers before start()`,
      );
    this.controllers.push(controller);
  }

  eventRecorder(component: string): EventRecorder {
    const r = new EventRecorder(new ResourceClient(this.transport, EVENTS), component, {
      logger: this.logger,
      clock: this.clock,
    });
    this.recorders.push(r);
    return r;
  }

  resourceClient<T extends KubeObject = KubeObject>(kind: ResourceKind<T>): ResourceClient<T> {
    return this.client.resource<T>(kind);
  }

  isLeader(): boolean {
    return this.elector ? this.elector.isLeader() : this.controllersRunning;
  }

  /** The identity this replica last saw holding the lease ('' before it has read it, or without leader election). */
  currentLeader(): string {
    return this.elector?.currentLeader() ?? '';
  }

  /** The port /healthz, /readyz and /metrics are served on (after start). */
  healthServerPort(): number | undefined {
    return this.healthPort;
  }

  /** Resolves once caches are synced and controllers run (or, with leader election, the campaign has begun). */
  async start(): Promise<void> {
    if (this.phase !== 'new') throw new Error(`manager cannot start: it is ${this.phase}`);
    this.phase = 'starting';
    if (this.options.handleSignals) {
      process.once('SIGTERM', this.onSignal);
      process.once('SIGINT', this.onSignal);
    }
    if (this.health)
      this.healthPort = await this.health.listen(this.options.health!.port, this.options.health!.host);
    this.informers.start();
    await this.informers.waitForCacheSync(this.options.cacheSyncTimeoutMs ?? 120_000);
    if (this.phase !== 'starting') return; // stopped while syncing
    this.phase = 'running';
    this.logger.info('caches synced', { informers: this.informers.list().map((i) => i.name) });
    const le = this.options.leaderElection;
    if (!le) return this.startControllers();
    this.elector = new LeaderElector({
      leases: new ResourceClient(this.transport, LEASES),
      namespace: le.namespace,
      name: le.name,
      identity: le.identity ?? `${hostname()}_${Math.random().toString(36).slice(2, 10)}`,
      leaseDurationMs: le.leaseDurationMs,
      renewDeadlineMs: le.renewDeadlineMs,
      retryPeriodMs: le.retryPeriodMs,
      logger: this.logger,
      clock: this.clock,
      onStartedLeading: () => this.startControllers(),
      onStoppedLeading: (reason) => {
        if (reason === 'lost') void this.loseLeadership();
      },
    });
    this.election = this.elector.run(this.electionAbort.signal);
  }

  /** Ordered, graceful stop; safe to call more than once. */
  async stop(): Promise<void> {
    if (this.phase === 'stopping' || this.phase === 'stopped') return this.done.then(() => undefined);
    this.phase = 'stopping';
    await this.shutdown('stopped', false);
  }

  private startControllers(): void {
    if (this.controllersRunning || this.phase !== 'running') return;
    this.controllersRunning = true;
    for (const c of this.controllers) c.start();
  }

  private async loseLeadership(): Promise<void> {
    if (this.phase === 'stopping' || this.phase === 'stopped') return;
    this.phase = 'stopping';
    this.logger.error('leadership lost; stopping controllers now');
    await this.shutdown('lost leadership', true);
  }

  private async shutdown(why: 'stopped' | 'lost leadership', immediate: boolean): Promise<void> {
    process.removeListener('SIGTERM', this.onSignal);
    process.removeListener('SIGINT', this.onSignal);
    await Promise.all(this.controllers.map((c) => c.stop({ immediate })));
    this.controllersRunning = false;
    this.electionAbort.abort();
    await this.election;
    await this.informers.stop();
    await Promise.all(this.recorders.map((r) => r.flush()));
    await this.health?.close();
    this.transport.close();
    this.phase = 'stopped';
    this.logger.info('manager stopped', { reason: why });
    this.resolveDone(why);
  }
}

function defaultRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
