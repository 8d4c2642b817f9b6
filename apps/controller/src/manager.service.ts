import { Inject, Injectable } from '@nestjs/common';
import { jsonLogger, Manager, type RestMapper } from '#runtime';
import { ACTORS, CONTROLLER_NAMESPACE, FIELD_MANAGERS, LEADER_LEASE } from '#api';
import { controllerCacheTransform } from './host/cache-transform.js';
import { CONTROLLER_OPTIONS, type ResolvedOptions } from './options.js';

/** The runtime's Manager (caches, client, controllers) and the REST mapper over its transport. */
@Injectable()
export class ManagerService {
  readonly manager: Manager;
  readonly mapper: RestMapper;

  constructor(@Inject(CONTROLLER_OPTIONS) options: ResolvedOptions) {
    this.manager = new Manager({
      kubeConfig: options.kubeConfig,
      fieldManager: FIELD_MANAGERS.controller,
      logger: options.logger ?? jsonLogger({ fields: { logger: ACTORS.controller } }),
      registry: options.registry,
      transport: { qps: options.qps, burst: options.burst },
      informers: {
        ...(options.resyncPeriodMs > 0 ? { resyncPeriodMs: options.resyncPeriodMs } : {}),
        transform: controllerCacheTransform(),
      },
      clock: options.clock,
      health:
        options.metricsPort === undefined
          ? undefined
          : { port: options.metricsPort, host: options.metricsHost },
      leaderElection: options.leaderElection
        ? {
            namespace: CONTROLLER_NAMESPACE,
            name: LEADER_LEASE,
            ...(options.leaderElection === true ? {} : options.leaderElection),
          }
        : undefined,
    });
    this.mapper = this.manager.mapper;
  }
}
