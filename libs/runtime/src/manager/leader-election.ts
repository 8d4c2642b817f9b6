import { type Clock, type KubeObject, realClock } from '#kube-core';
import { isAlreadyExists, isConflict, isNotFound } from '../client/api-error.js';
import type { ResourceClient } from '../client/resource-client.js';
import type { Logger } from '../log/logger.js';
import { silentLogger } from '../log/logger.js';
import { jitter, sleep } from '../util/timing.js';

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}
type Lease = KubeObject & { spec?: LeaseSpec };

export interface LeaderElectionConfig {
  /** A ResourceClient for coordination.k8s.io/v1 leases. */
  leases: ResourceClient<Lease>;
  namespace: string;
  name: string;
  identity: string;
  /** How long a holder's claim is honoured without renewal (client-go default 15 s). */
  leaseDurationMs?: number;
  /** How long the leader keeps retrying a renewal before giving up leadership (default 10 s). */
  renewDeadlineMs?: number;
  /** Interval between attempts (default 2 s). */
  retryPeriodMs?: number;
  onStartedLeading: () => void;
  /** Called when leadership ends for any reason (lost, or released on stop). */
  onStoppedLeading: (reason: 'lost' | 'released') => void;
  onNewLeader?: (identity: string) => void;
  logger?: Logger;
  /**
   * Times lease expiry, the renew deadline and the retry period, and stamps
   * the Lease's acquire/renew times. Default: the wall clock.
   */
  clock?: Clock;
  /** The retry period's jitter source, in [0, 1); default Math.random. */
  random?: () => number;
}

/**
 * Leader election on a coordination.k8s.io/v1 Lease (client-go tools/leaderelection).
 *
 * Contract: a candidate acquires when the Lease is free or its holder has not
 * renewed it for the holder's leaseDurationSeconds (as observed on our own
 * clock, never by comparing clocks); the leader renews every retryPeriod and
 * gives up (`onStoppedLeading('lost')`, `run()` returns) once renewals have
 * kept failing for renewDeadline, which is before any standby may take over.
 * Every write carries the Lease's resourceVersion, so two candidates can never
 * both win a round (the loser gets 409 Conflict). Aborting `run()`'s signal
 * while leading releases the Lease (holder cleared) so a standby takes over at
 * once, then calls `onStoppedLeading('released')`.
 */
export class LeaderElector {
  private leading = false;
  private observed?: { spec: string; at: number };
  private lease?: Lease;
  private leader = '';
  /** The timings in force (client-go defaults: lease 15 s, renew deadline 10 s, retry 2 s). */
  readonly timings: {
    readonly leaseDurationMs: number;
    readonly renewDeadlineMs: number;
    readonly retryPeriodMs: number;
  };
  private readonly cfg: Required<Omit<LeaderElectionConfig, 'onNewLeader' | 'logger'>> &
    Pick<LeaderElectionConfig, 'onNewLeader'>;
  private readonly log: Logger;
  private readonly clock: Clock;

  constructor(config: LeaderElectionConfig) {
    // `??`, not a spread: a caller passing `leaseDurationMs: undefined` means "the default".
    this.cfg = {
      ...config,
      leaseDurationMs: config.leaseDurationMs ?? 15_000,
      renewDeadlineMs: config.renewDeadlineMs ?? 10_000,
      retryPeriodMs: config.retryPeriodMs ?? 2_000,
      clock: config.clock ?? realClock,
      random: config.random ?? Math.random,
    };
    this.clock = this.cfg.clock;
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = this.cfg;
    if (!(leaseDurationMs > renewDeadlineMs && renewDeadlineMs > retryPeriodMs * 1.2)) {
      throw new Error(
        `leader election needs leaseDuration > renewDeadline > 1.2 × retryPeriod, got ${leaseDurationMs}/${renewDeadlineMs}/${retryPeriodMs} ms`,
      );
    }
    this.timings = { leaseDurationMs, renewDeadlineMs, retryPeriodMs };
    this.log = (config.logger ?? silentLogger).child({
      lease: `${config.namespace}/${config.name}`,
      identity: config.identity,
    });
  }

  isLeader(): boolean {
    return this.leading;
  }

  currentLeader(): string {
    return this.leader;
  }

  /** Campaigns, leads, and returns when leadership is lost or `signal` aborts (then the lease is released). */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && !(await this.tryAcquireOrRenew(signal)))
      await sleep(jitter(this.cfg.retryPeriodMs, 1.2, this.cfg.random), signal, this.clock);
    if (signal.aborted) return;
    this.leading = true;
    this.log.info('acquired leadership');
    this.cfg.onStartedLeading();
    for (;;) {
      await sleep(this.cfg.retryPeriodMs, signal, this.clock);
      if (signal.aborted) {
        await this.release();
        return;
      }
      if (!(await this.renew(signal))) {
        if (signal.aborted) {
          await this.release();
          return;
        }
        this.leading = false;
        this.log.warn('failed to renew the lease within the renew deadline; leadership lost');
        this.cfg.onStoppedLeading('lost');
        return;
      }
    }
  }

  /** Retries the renewal every retryPeriod until it succeeds or renewDeadline has passed. */
  private async renew(signal: AbortSignal): Promise<boolean> {
    const deadline = this.clock.now() + this.cfg.renewDeadlineMs;
    while (!signal.aborted && this.clock.now() < deadline) {
      if (await this.tryAcquireOrRenew(signal, deadline - this.clock.now())) return true;
      await sleep(Math.min(this.cfg.retryPeriodMs, deadline - this.clock.now()), signal, this.clock);
    }
    return false;
  }

  private async tryAcquireOrRenew(
    signal: AbortSignal,
    timeoutMs = this.cfg.renewDeadlineMs,
  ): Promise<boolean> {
    const { leases, namespace, name, identity } = this.cfg;
    const now = new Date(this.clock.now());
    const request = { signal, timeoutMs: Math.max(1, Math.floor(timeoutMs)) };
    const durationSeconds = Math.max(1, Math.ceil(this.cfg.leaseDurationMs / 1000));
    try {
      let current: Lease;
      try {
        current = await leases.get(namespace, name, request);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        const spec: LeaseSpec = {
          holderIdentity: identity,
          leaseDurationSeconds: durationSeconds,
          acquireTime: microTime(now),
          renewTime: microTime(now),
          leaseTransitions: 0,
        };
        this.lease = await leases.create(
          { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { namespace, name }, spec },
          request,
        );
        this.observe(spec);
        return true;
      }
      const spec = current.spec ?? {};
      this.observe(spec);
      const holder = spec.holderIdentity ?? '';
      // Like client-go, honour the duration the holder wrote: replicas may be configured differently.
      const validForMs = spec.leaseDurationSeconds
        ? spec.leaseDurationSeconds * 1000
        : this.cfg.leaseDurationMs;
      if (holder && holder !== identity && this.clock.now() < this.observed!.at + validForMs) return false;
      const mine = holder === identity;
      const next: LeaseSpec = {
        holderIdentity: identity,
        leaseDurationSeconds: durationSeconds,
        acquireTime: mine ? spec.acquireTime : microTime(now),
        renewTime: microTime(now),
        leaseTransitions: mine ? (spec.leaseTransitions ?? 0) : (spec.leaseTransitions ?? 0) + 1,
      };
      this.lease = await leases.update({ ...current, spec: next }, request);
      this.observe(next);
      return true;
    } catch (err) {
      if (isConflict(err) || isAlreadyExists(err)) return false; // another candidate wrote first: lost this round
      if (!signal.aborted) this.log.warn('lease request failed', { error: err });
      return false;
    }
  }

  /** Gives the lease up so a standby can take over at once instead of waiting for it to expire. */
  private async release(): Promise<void> {
    if (!this.leading || !this.lease) return;
    this.leading = false;
    const now = microTime(new Date(this.clock.now()));
    try {
      const spec: LeaseSpec = {
        leaseDurationSeconds: 1,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: this.lease.spec?.leaseTransitions ?? 0,
      };
      await this.cfg.leases.update({ ...this.lease, spec }, { timeoutMs: this.cfg.renewDeadlineMs });
      this.log.info('released leadership');
    } catch (err) {
      this.log.warn('could not release the lease; standbys will take over when it expires', { error: err });
    }
    this.cfg.onStoppedLeading('released');
  }

  private observe(spec: LeaseSpec): void {
    const key = JSON.stringify(spec);
    if (this.observed?.spec !== key) this.observed = { spec: key, at: this.clock.now() };
    const holder = spec.holderIdentity ?? '';
    if (holder !== this.leader) {
      this.leader = holder;
      if (holder) this.cfg.onNewLeader?.(holder);
    }
  }
}

/** metav1.MicroTime wants exactly six fractional digits. */
function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
