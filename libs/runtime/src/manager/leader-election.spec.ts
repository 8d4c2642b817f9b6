import { FakeClock, type KubeObject } from '#kube-core';
import { advanceUntil } from '../../test/fake-time.js';
import { KubeApiError } from '../client/api-error.js';
import type { ResourceClient } from '../client/resource-client.js';
import { LeaderElector, type LeaderElectionConfig } from './leader-election.js';

type Lease = KubeObject & {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; leaseTransitions?: number };
};

/**
 * One Lease with the API server's optimistic concurrency: create fails with
 * AlreadyExists, update with a stale resourceVersion fails with Conflict.
 * Every request takes 5 ms of the fake clock, so concurrent candidates read the same version.
 */
class LeaseStore {
  constructor(private readonly clock: FakeClock) {}

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
    const pause = () => this.clock.sleep(5);
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

/** Every test runs on its own fake clock: lease expiry, deadlines and retries are stepped through. */
let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock(0);
});
const until = (check: () => boolean, what: string): Promise<void> => advanceUntil(clock, check, what);

/** A seeded PRNG (mulberry32) for the retry jitter: random-looking, and the same on every run. */
function seeded(seed: string): () => number {
  let a = [...seed].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 0x9e3779b1), 0x12345678);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function candidate(store: LeaseStore, identity: string, log: string[]) {
  const abort = new AbortController();
  const config: LeaderElectionConfig = {
    leases: store.clientFor(identity),
    namespace: 'ns',
    name: 'lock',
    identity,
    ...TIMINGS,
    clock,
    random: seeded(identity),
    onStartedLeading: () => void log.push(`${identity} leads @${clock.now()}`),
    onStoppedLeading: (why) => void log.push(`${identity} ${why} @${clock.now()}`),
  };
  const elector = new LeaderElector(config);
  let returned = false;
  const running = elector.run(abort.signal).then(() => void (returned = true));
  return { elector, abort, running, returned: () => returned };
}

/** Aborts candidates and steps the clock until each run() returned (releasing takes a request). */
async function stopAll(...cs: Array<ReturnType<typeof candidate>>): Promise<void> {
  for (const c of cs) c.abort.abort();
  await until(() => cs.every((c) => c.returned()), 'the candidates to stop');
  await Promise.all(cs.map((c) => c.running));
}

const at = (line: string) => Number(line.split('@')[1]);

describe('LeaderElector', () => {
  it("uses client-go's defaults (15 s / 10 s / 2 s) and rejects timings that cannot work", () => {
    const base = {
      leases: new LeaseStore(new FakeClock()).clientFor('a'),
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
    // What the Manager passes when only an identity was given.
    const unset = { leaseDurationMs: undefined, renewDeadlineMs: undefined, retryPeriodMs: undefined };
    expect(new LeaderElector({ ...base, ...unset }).timings).toEqual(new LeaderElector(base).timings);
    expect(() => new LeaderElector({ ...base, leaseDurationMs: 5000, renewDeadlineMs: 6000 })).toThrow(
      /leaseDuration > renewDeadline/,
    );
  });

  it('lets exactly one of several racing candidates lead, through optimistic concurrency on the Lease', async () => {
    const store = new LeaseStore(clock);
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
      const version = Number(store.lease?.metadata?.resourceVersion);
      await clock.advance(400); // several renew rounds: the leader renews, the others keep trying
      expect(Number(store.lease?.metadata?.resourceVersion)).toBeGreaterThanOrEqual(version + 3);
      expect(log).toHaveLength(1);
      expect(cs.filter((c) => c.elector.isLeader())).toHaveLength(1);
      const leader = log[0].split(' ')[0];
      expect(store.lease?.spec?.holderIdentity).toBe(leader);
      expect(cs.every((c) => c.elector.currentLeader() === leader)).toBe(true);
      expect(store.conflicts).toBeGreaterThan(0); // the losers' writes carried a stale resourceVersion
    } finally {
      await stopAll(...cs);
    }
  });

  it('a leader cut off from the server gives up after the renew deadline; a standby takes over once the lease expires', async () => {
    const store = new LeaseStore(clock);
    const log: string[] = [];
    const a = candidate(store, 'a', log);
    await until(() => a.elector.isLeader(), 'a to lead');
    const b = candidate(store, 'b', log);
    try {
      await clock.advance(300); // b has looked at the lease several times meanwhile
      expect(b.elector.currentLeader()).toBe('a');
      expect(b.elector.isLeader()).toBe(false);
      const cutAt = clock.now();
      store.unreachable.add('a');
      await until(() => a.returned(), 'a to give up'); // run() returns when leadership is lost
      await until(() => b.elector.isLeader(), 'b to take over');
      expect(log).toEqual([
        expect.stringMatching(/^a leads/),
        expect.stringMatching(/^a lost/),
        expect.stringMatching(/^b leads/),
      ]);
      // Times on the fake clock, in ms after the cut: exact for this run, and the same on any machine.
      const lostAfter = at(log[1]) - cutAt;
      const tookAfter = at(log[2]) - cutAt;
      // a gives up within the renew deadline of its first failed renewal (one retry period after the last good one)...
      expect(lostAfter).toBeLessThanOrEqual(TIMINGS.renewDeadlineMs + 2 * TIMINGS.retryPeriodMs);
      // ...strictly before b may take over: there are never two leaders.
      expect(lostAfter).toBeLessThan(tookAfter);
      // b cannot know a is gone: it waits out the lease from the last renewal it saw (at most one renew
      // period before the cut), and takes over within two of its jittered retry periods (≤ 2.2 × retry) after.
      expect(tookAfter).toBeGreaterThanOrEqual(TIMINGS.leaseDurationMs - TIMINGS.retryPeriodMs - 50);
      expect(tookAfter).toBeLessThanOrEqual(TIMINGS.leaseDurationMs + 5 * TIMINGS.retryPeriodMs);
      expect(store.lease?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    } finally {
      await stopAll(b);
    }
  });

  it('releases the lease on a clean stop, so a standby takes over without waiting for it to expire', async () => {
    const store = new LeaseStore(clock);
    const log: string[] = [];
    const a = candidate(store, 'a', log);
    await until(() => a.elector.isLeader(), 'a to lead');
    const b = candidate(store, 'b', log);
    try {
      await clock.advance(150);
      expect(b.elector.currentLeader()).toBe('a');
      const stopAt = clock.now();
      await stopAll(a);
      expect(log.some((l) => l.startsWith('a released'))).toBe(true);
      expect(store.lease?.spec?.holderIdentity).toBeUndefined();
      await until(() => b.elector.isLeader(), 'b to take over');
      // On the fake clock: b's next attempt (one jittered retry period) finds the lease free,
      // well before the lease would have expired had a just vanished.
      expect(clock.now() - stopAt).toBeLessThan(TIMINGS.leaseDurationMs / 2);
    } finally {
      await stopAll(b);
    }
  });
});
