import { KubeApiError } from '../client/api-error.js';
import type { ResourceClient } from '../client/resource-client.js';
import type { KubeObject } from '../util/object.js';
import { LeaderElector, type LeaderElectionConfig } from './leader-election.js';

type Lease = KubeObject & {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; leaseTransitions?: number };
};

/**
 * One Lease with the API server's optimistic concurrency: create fails with
 * AlreadyExists, update with a stale resourceVersion fails with Conflict.
 * Reads are slow enough that concurrent candidates read the same version.
 */
class LeaseStore {
  lease?: Lease;
  private rv = 0;
  /** Identities whose requests get no answer (a partitioned or killed replica). */
  readonly unreachable = new Set<string>();
  conflicts = 0;

  clientFor(identity: string): ResourceClient<Lease> {
    const check = (verb: string): void => {
      if (this.unreachable.has(identity))
        throw new KubeApiError(0, 'NetworkError', 'connect ECONNREFUSED', verb, '/leases');
    };
    const pause = () => new Promise((r) => setTimeout(r, 5));
    return {
      get: async () => {
        check('GET');
        await pause();
        if (!this.lease) throw new KubeApiError(404, 'NotFound', 'leases "x" not found', 'GET', '/leases');
        return structuredClone(this.lease);
      },
      create: async (obj: Lease) => {
        check('POST');
        await pause();
        if (this.lease)
          throw new KubeApiError(409, 'AlreadyExists', 'leases "x" already exists', 'POST', '/leases');
        this.lease = {
          ...structuredClone(obj),
          metadata: { ...obj.metadata, resourceVersion: String(++this.rv) },
        };
        return structuredClone(this.lease);
      },
      update: async (obj: Lease) => {
        check('PUT');
        await pause();
        if (obj.metadata?.resourceVersion !== this.lease?.metadata?.resourceVersion) {
          this.conflicts++;
          throw new KubeApiError(409, 'Conflict', 'the object has been modified', 'PUT', '/leases');
        }
        this.lease = {
          ...structuredClone(obj),
          metadata: { ...obj.metadata, resourceVersion: String(++this.rv) },
        };
        return structuredClone(this.lease);
      },
    } as unknown as ResourceClient<Lease>;
  }
}

const TIMINGS = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 };

function candidate(store: LeaseStore, identity: string, log: string[]) {
  const abort = new AbortController();
  const config: LeaderElectionConfig = {
    leases: store.clientFor(identity),
    namespace: 'ns',
    name: 'lock',
    identity,
    ...TIMINGS,
    onStartedLeading: () => void log.push(`${identity} leads @${Math.round(performance.now())}`),
    onStoppedLeading: (why) => void log.push(`${identity} ${why} @${Math.round(performance.now())}`),
  };
  const elector = new LeaderElector(config);
  const running = elector.run(abort.signal);
  return { elector, abort, running };
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const at = (line: string) => Number(line.split('@')[1]);

describe('LeaderElector', () => {
  it("uses client-go's defaults (15 s / 10 s / 2 s) and rejects timings that cannot work", () => {
    const base = {
      leases: new LeaseStore().clientFor('a'),
      namespace: 'ns',
      name: 'l',
      identity: 'a',
      onStartedLeading: () => {},
      onStoppedLeading: () => {},
    };
    expect(new LeaderElector(base).timings).toEqual({
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
    });
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 5000, renewDeadlineMs: 6000 })).toThrow(
      /leaseDuration > renewDeadline/,
    );
  });

  it('lets exactly one of several racing candidates lead, through optimistic concurrency on the Lease', async () => {
    const store = new LeaseStore();
    // A free Lease (released by a previous leader): every candidate reads it and tries to update it.
    store.lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'lock', namespace: 'ns', resourceVersion: '0' },
      spec: { leaseDurationSeconds: 1 },
    };
    const log: string[] = [];
    const cs = ['a', 'b', 'c'].map((id) => candidate(store, id, log));
    try {
      await until(() => log.length === 1, 'a leader');
      await new Promise((r) => setTimeout(r, 400)); // several renew rounds
      expect(log).toHaveLength(1);
      expect(cs.filter((c) => c.elector.isLeader())).toHaveLength(1);
      const leader = log[0].split(' ')[0];
      expect(store.lease?.spec?.holderIdentity).toBe(leader);
      expect(cs.every((c) => c.elector.currentLeader() === leader)).toBe(true);
      expect(store.conflicts).toBeGreaterThan(0); // the losers' writes carried a stale resourceVersion
    } finally {
      for (const c of cs) c.abort.abort();
      await Promise.all(cs.map((c) => c.running));
    }
  });

  it('a leader cut off from the server gives up after the renew deadline; a standby takes over once the lease expires', async () => {
    const store = new LeaseStore();
    const log: string[] = [];
    const a = candidate(store, 'a', log);
    await until(() => a.elector.isLeader(), 'a to lead');
    const b = candidate(store, 'b', log);
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect(b.elector.isLeader()).toBe(false);
      const cutAt = performance.now();
      store.unreachable.add('a');
      await a.running; // run() returns when leadership is lost
      await until(() => b.elector.isLeader(), 'b to take over');
      const lost = log.find((l) => l.startsWith('a lost'))!;
      const took = log.find((l) => l.startsWith('b leads'))!;
      expect(at(lost) - cutAt).toBeLessThan(TIMINGS.renewDeadlineMs + 2 * TIMINGS.retryPeriodMs + 100);
      // b cannot know a is gone: it waits out the lease from the last renewal it saw, but not much longer.
      expect(at(took) - cutAt).toBeGreaterThanOrEqual(TIMINGS.leaseDurationMs - TIMINGS.retryPeriodMs - 50);
      expect(at(took) - cutAt).toBeLessThan(TIMINGS.leaseDurationMs + 3 * TIMINGS.retryPeriodMs + 300);
      expect(store.lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    } finally {
      b.abort.abort();
      await b.running;
    }
  });

  it('releases the lease on a clean stop, so a standby takes over without waiting for it to expire', async () => {
    const store = new LeaseStore();
    const log: string[] = [];
    const a = candidate(store, 'a', log);
    await until(() => a.elector.isLeader(), 'a to lead');
    const b = candidate(store, 'b', log);
    try {
      await new Promise((r) => setTimeout(r, 150));
      const stopAt = performance.now();
      a.abort.abort();
      await a.running;
      expect(log.some((l) => l.startsWith('a released'))).toBe(true);
      expect(store.lease?.spec?.holderIdentity).toBeUndefined();
      await until(() => b.elector.isLeader(), 'b to take over');
      expect(performance.now() - stopAt).toBeLessThan(TIMINGS.leaseDurationMs / 2);
    } finally {
      b.abort.abort();
      await b.running;
    }
  });
});
