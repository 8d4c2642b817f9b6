import { controllerOf, eventually, FakeClock, ownerReferenceTo, type KubeObject } from '#kube-core';
import type { EventHandler, InformerLease } from '#runtime';
import { startRuntimeCluster, type RuntimeCluster } from './harness.js';

// Watches added while the manager runs, held by reference count and stopped when released.
let cluster: RuntimeCluster;
let ns: string;

beforeAll(async () => {
  // 0: a released informer stops at once, so the test can see its watch close.
  cluster = await startRuntimeCluster({ informers: { idleStopMs: 0 } });
  ns = await cluster.namespace('rt-watch');
});
afterAll(() => cluster?.stop());

const CONFIG_MAP = { apiVersion: 'v1', kind: 'ConfigMap' };

function configMap(name: string, extra: Partial<KubeObject> = {}): KubeObject {
  return { ...CONFIG_MAP, metadata: { name, namespace: ns, ...extra.metadata }, data: { v: '1' } };
}

/** Records what a handler is told, as `type name` lines. */
function recorder(): { handler: EventHandler<KubeObject>; seen: string[] } {
  const seen: string[] = [];
  const line = (type: string, o: KubeObject) =>
    o.metadata?.namespace === ns && seen.push(`${type} ${o.metadata?.name}`);
  return {
    seen,
    handler: {
      onAdd: (o) => line('add', o),
      onUpdate: (_old, o) => line('update', o),
      onDelete: (o) => line('delete', o),
    },
  };
}

describe('dynamic informers', () => {
  let lease: InformerLease | undefined;
  afterEach(() => lease?.release());

  it('a watch added after the manager started delivers events', async () => {
    const { manager } = cluster;
    expect(manager.isLeader()).toBe(true); // running
    const { handler, seen } = recorder();
    lease = await manager.informers.acquire(CONFIG_MAP, { handler });
    expect(lease.informer.isStarted()).toBe(true);
    expect(await lease.informer.waitForSync(AbortSignal.timeout(30_000))).toBe(true);

    await manager.client.create(configMap('late'));
    await eventually(() => seen.includes('add late'), 'the add of late');
    await manager.client.patch(CONFIG_MAP, ns, 'late', { data: { v: '2' } }, { type: 'merge' });
    await eventually(() => seen.includes('update late'), 'the update of late');
    await manager.client.delete(CONFIG_MAP, ns, 'late');
    await eventually(() => seen.includes('delete late'), 'the delete of late');
    expect(seen).toEqual(['add late', 'update late', 'delete late']);
  });

  it('owner references round-trip: the server garbage-collects a dependent of a deleted owner', async () => {
    const { manager } = cluster;
    const { handler, seen } = recorder();
    lease = await manager.informers.acquire(CONFIG_MAP, { handler });
    const owner = await manager.client.create(configMap('owner'));
    const dependent = await manager.client.create(
      configMap('dependent', {
        metadata: { ownerReferences: [ownerReferenceTo(owner, { controller: true })] },
      }),
    );
    const cached = await eventually(() => manager.client.get(dependent), 'the dependent in the cache');
    expect(controllerOf(cached)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'owner',
      uid: owner.metadata!.uid,
      controller: true,
    });

    await manager.client.delete(owner, { propagationPolicy: 'Background' });
    await eventually(
      () => seen.includes('delete dependent'),
      'the dependent deleted by the garbage collector',
    );
    expect(seen.filter((s) => s.startsWith('delete'))).toEqual(['delete owner', 'delete dependent']);
    expect(await manager.client.get(dependent)).toBeUndefined();
  });

  it('a released informer stops: its watch closes and it leaves the factory', async () => {
    const { manager } = cluster;
    const secrets = { apiVersion: 'v1', kind: 'Secret' };
    const baseline = await cluster.openWatches();
    const first = await manager.informers.acquire(secrets);
    const second = await manager.informers.acquire(secrets);
    expect(second.informer).toBe(first.informer); // one informer per kind, counted
    await eventually(async () => (await cluster.openWatches()) === baseline + 1, 'the Secret watch open');

    first.release();
    first.release(); // idempotent: still held by `second`
    expect(manager.informers.list()).toContain(second.informer);
    expect(await cluster.openWatches()).toBe(baseline + 1);

    second.release();
    expect(manager.informers.list()).not.toContain(second.informer);
    await eventually(async () => (await cluster.openWatches()) === baseline, 'the Secret watch closed');

    // A later acquire starts a fresh informer (a new list and watch).
    const again = await manager.informers.acquire(secrets);
    expect(again.informer).not.toBe(first.informer);
    await eventually(async () => (await cluster.openWatches()) === baseline + 1, 'a new Secret watch');
    again.release();
    await eventually(async () => (await cluster.openWatches()) === baseline, 'the new watch closed');
  });

  it('a kind that is not served is named, and nothing is started for it', async () => {
    const before = cluster.manager.informers.list().length;
    await expect(
      cluster.manager.informers.acquire({ apiVersion: 'e2e.example.com/v1', kind: 'Gadget' }),
    ).rejects.toThrow('the server does not serve kind "Gadget" in "e2e.example.com/v1"');
    expect(cluster.manager.informers.list()).toHaveLength(before);
  });
});

describe('idle informers', () => {
  it('linger idleStopMs on the factory clock after the last release, and a new hold keeps them', async () => {
    const clock = new FakeClock();
    const idle = await startRuntimeCluster({ informers: { idleStopMs: 1000, clock } });
    try {
      const factory = idle.manager.informers;
      const lease = await factory.acquire({ apiVersion: 'v1', kind: 'Endpoints' });
      lease.release();
      await clock.advance(999);
      expect(factory.list()).toContain(lease.informer);
      const again = await factory.acquire({ apiVersion: 'v1', kind: 'Endpoints' });
      expect(again.informer).toBe(lease.informer); // kept: no re-list
      await clock.advance(5000);
      expect(factory.list()).toContain(lease.informer);
      again.release();
      await clock.advance(1000);
      expect(factory.list()).not.toContain(lease.informer);
    } finally {
      await idle.stop();
    }
  });
});
