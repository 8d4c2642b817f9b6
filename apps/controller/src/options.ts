import type { KubeConfig } from '@kubernetes/client-node';
import type { Clock } from '#kube-core';
import type { Logger } from '#runtime';
import type { Registry } from 'prom-client';
import { DEFAULT_SYSTEM_NAMESPACE } from '#api';
import type { Workflow } from './workflow/workflow.js';

/** How to run the controller; the CLI's flags map onto these one to one. */
export interface ControllerOptions {
  kubeConfig: KubeConfig;
  /** Where the built-in definitions are installed and looked up after the app's own namespace. */
  systemNamespace?: string;
  /** Reconcile Applications only in these namespaces; empty or absent = all. */
  watchNamespaces?: string[];
  /** Concurrent reconciles (KubeVela's default is 4). */
  workers?: number;
  qps?: number;
  burst?: number;
  logger?: Logger;
  registry?: Registry;
  /** Shown on the heartbeat Lease. */
  version?: string;
  /** Install the built-ins at start-up (default true). */
  installDefinitions?: boolean;
  /** How often the heartbeat Lease is renewed (default 10 s). */
  heartbeatIntervalMs?: number;
  /**
   * How often every cached object is handed to the handlers again, so each
   * Application is reconciled even if an event was missed (default 10 min;
   * free when nothing changed: no write). 0 turns it off.
   */
  resyncPeriodMs?: number;
  /**
   * Run as one of several replicas: only the holder of the Lease
   * `oam-system/oam-controller-leader` reconciles; the others keep warm
   * caches and take over when it is gone. Timings default to client-go's
   * 15 s lease, 10 s renew deadline, 2 s retry period.
   */
  leaderElection?: boolean | LeaderElectionTimings;
  /** Serve /healthz, /readyz and /metrics on this port (0 = any free port); absent = no server. */
  metricsPort?: number;
  /** The address the health and metrics server binds (default 127.0.0.1; in a pod, 0.0.0.0). */
  metricsHost?: string;
  /** ApplicationRevisions kept per application, the live one included (default 10; oldest deleted first). */
  revisionLimit?: number;
  /**
   * How long a component waits for the components it depends on to be
   * healthy before the controller gives up and says so (default 10 min).
   */
  dependsOnTimeoutMs?: number;
  /** Most CPU time one template evaluation may use (default: the renderer's). */
  evalCpuLimitMs?: number;
  /** Most memory one template evaluation may use, in bytes (default: the renderer's). */
  evalMemoryLimitBytes?: number;
  /** Time for queues, backoff, leader election, dependsOn deadlines (tests inject a FakeClock). */
  clock?: Clock;
  /** What the apply stage applies, and when; default: every component in dependsOn order. */
  workflow?: Workflow;
}

export interface LeaderElectionTimings {
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Default: hostname + a random suffix. */
  identity?: string;
}

type Optional =
  'logger' | 'registry' | 'metricsPort' | 'clock' | 'workflow' | 'evalCpuLimitMs' | 'evalMemoryLimitBytes';
export type ResolvedOptions = Required<Omit<ControllerOptions, Optional>> & Pick<ControllerOptions, Optional>;

export const CONTROLLER_OPTIONS = Symbol('CONTROLLER_OPTIONS');

export function resolveOptions(options: ControllerOptions): ResolvedOptions {
  return {
    systemNamespace: DEFAULT_SYSTEM_NAMESPACE,
    watchNamespaces: [],
    workers: 4,
    qps: 50,
    burst: 100,
    version: process.env.npm_package_version ?? '0.1.0',
    installDefinitions: true,
    heartbeatIntervalMs: 10_000,
    resyncPeriodMs: 600_000,
    leaderElection: false,
    metricsHost: '127.0.0.1',
    revisionLimit: 10,
    dependsOnTimeoutMs: 600_000,
    ...stripUndefined(options),
  };
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
