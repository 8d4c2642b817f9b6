import { FakeClock, type KubeObject } from '#kube-core';
import { advanceUntil } from '../../test/fake-time.js';
import type { WatchEvent, WatchOptions } from '../client/resource-client.js';
import type { StreamEnd } from '../client/transport.js';
import { memoryLogger } from '../log/logger.js';
import type { ListerWatcher } from './reflector.js';
import { SharedInformer } from './shared-informer.js';

const cm = (name: string, rv: string, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name,
    namespace: 'ns',
    resourceVersion: rv,
    managedFields: [{ manager: 'kubectl', operation: 'Update' }],
    ...extra,
  },
  data: { v: rv },
});

/** A source whose list answer can be changed, with one live watch the test pushes events into or cuts. */
class LiveSource implements ListerWatcher<KubeObject> {
  listed: KubeObject[] = [];
  lists = 0;
  private current?: { emit: (e: WatchEvent<KubeObject>) => void; end: (r: StreamEnd) => void };

  async listAll(): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    this.lists++;
    return { items: this.listed.map((o) => structuredClone(o)), resourceVersion: String(this.lists * 100) };
  }

  watch(options: WatchOptions, onEvent: (event: WatchEvent<KubeObject>) => void): Promise<StreamEnd> {
    return new Promise((resolve) => {
      const end = (r: StreamEnd): void => {
        this.current = undefined;
        resolve(r);
      };
      this.current = { emit: onEvent, end };
      options.signal?.addEventListener('abort', () => end({ reason: 'aborted' }), { once: true });
    });
  }

  emit(e: WatchEvent<KubeObject>): void {
    if (!this.current) throw new Error('no watch open');
    try {
      this.current.emit(e);
    } catch (error) {
      this.current.end({ reason: 'broken', error: error as Error });
    }
  }

  /** The server answers the next watch event with 410 Gone: the informer must re-list. */
  expire(): void {
    this.emit({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } as KubeObject });
  }

  watching(): boolean {
    return this.current !== undefined;
  }
}

/** Every informer here runs on a fake clock: re-list backoff and resync are stepped through, never slept. */
let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock(0);
});
const until = (check: () => boolean, what: string): Promise<void> => advanceUntil(clock, check, what);

function recorder() {
  const events: string[] = [];
  return {
    events,
    handler: {
      onAdd: (o: KubeObject, initial: boolean) =>
        void events.push(`add ${o.metadata!.name}${initial ? ' (initial)' : ''}`),
      onUpdate: (old: KubeObject, o: KubeObject) =>
        void events.push(
          `update ${o.metadata!.name} ${old.metadata!.resourceVersion}->${o.metadata!.resourceVersion}`,
        ),
      onDelete: (o: KubeObject, unknown: boolean) =>
        void events.push(`delete ${o.metadata!.name}${unknown ? ' (tombstone)' : ''}`),
    },
  };
}

describe('SharedInformer', () => {
  it('syncs, stores objects frozen and without managedFields, and tells handlers about adds, updates (old and new) and deletes', async () => {
    const source = new LiveSource();
    source.listed = [cm('a', '1'), cm('b', '1')];
    const informer = new SharedInformer({ listerWatcher: source, name: 'cm', backoffInitialMs: 5, clock });
    const r = recorder();
    informer.addEventHandler(r.handler);
    expect(informer.hasSynced()).toBe(false);
    informer.start();
    try {
      expect(await informer.waitForSync(AbortSignal.timeout(2000))).toBe(true);
      expect(informer.hasSynced()).toBe(true);
      expect(r.events.sort()).toEqual(['add a (initial)', 'add b (initial)']);
      const a = informer.indexer.get('ns', 'a')!;
      expect(a.metadata!.managedFields).toBeUndefined();
      expect(Object.isFrozen(a) && Object.isFrozen(a.metadata) && Object.isFrozen(a.data)).toBe(true);

      r.events.length = 0;
      await until(() => source.watching(), 'the watch');
      source.emit({ type: 'MODIFIED', object: cm('a', '2') });
      source.emit({ type: 'ADDED', object: cm('c', '3') });
      source.emit({ type: 'DELETED', object: cm('b', '4') });
      await until(() => r.events.length === 3, 'three events');
      expect(r.events).toEqual(['update a 1->2', 'add c', 'delete b']);
      expect(informer.indexer.listKeys().sort()).toEqual(['ns/a', 'ns/c']);
    } finally {
      await informer.stop();
    }
  });

  it('a handler added after start first gets the current contents, then live events; removal stops delivery', async () => {
    const source = new LiveSource();
    source.listed = [cm('a', '1'), cm('b', '1')];
    const informer = new SharedInformer({ listerWatcher: source, name: 'cm', clock });
    informer.start();
    try {
      await informer.waitForSync();
      await until(() => source.watching(), 'the watch');
      const late = recorder();
      const registration = informer.addEventHandler(late.handler);
      expect(late.events.sort()).toEqual(['add a (initial)', 'add b (initial)']);
      source.emit({ type: 'ADDED', object: cm('c', '2') });
      await until(() => late.events.length === 3, 'the live add');
      registration.remove();
      source.emit({ type: 'ADDED', object: cm('d', '3') });
      await until(() => informer.indexer.size() === 4, 'd cached');
      expect(late.events).toHaveLength(3);
    } finally {
      await informer.stop();
    }
  });

  it('on a re-list after 410, delivers deletes for objects that vanished meanwhile (tombstones with the last known state)', async () => {
    const source = new LiveSource();
    source.listed = [cm('a', '1'), cm('b', '1')];
    const informer = new SharedInformer({
      listerWatcher: source,
      name: 'cm',
      backoffInitialMs: 5,
      backoffMaxMs: 20,
      clock,
    });
    const r = recorder();
    const lastKnown: KubeObject[] = [];
    informer.addEventHandler({
      ...r.handler,
      onDelete: (o, unknown) => (r.handler.onDelete(o, unknown), void lastKnown.push(o)),
    });
    informer.start();
    try {
      await informer.waitForSync();
      await until(() => source.watching(), 'the watch');
      source.emit({ type: 'MODIFIED', object: cm('b', '2') });
      source.listed = [cm('a', '1'), cm('n', '5')]; // b deleted and n created while "the watch was down"
      source.expire();
      await until(
        () => source.lists === 2 && informer.indexer.size() === 2 && r.events.includes('add n'),
        're-list applied',
      );
      expect(r.events).toContain('delete b (tombstone)');
      expect(lastKnown[0].metadata!.resourceVersion).toBe('2');
      expect(informer.indexer.listKeys().sort()).toEqual(['ns/a', 'ns/n']);
      expect(informer.stats()).toMatchObject({ lists: 2, relistsOnGone: 1 });
    } finally {
      await informer.stop();
    }
  });

  it('replays the cache to handlers as updates every resync period', async () => {
    const source = new LiveSource();
    source.listed = [cm('a', '1')];
    const informer = new SharedInformer({ listerWatcher: source, name: 'cm', resyncPeriodMs: 30, clock });
    const r = recorder();
    informer.addEventHandler(r.handler);
    informer.start();
    const resyncs = (): number => r.events.filter((e) => e === 'update a 1->1').length;
    try {
      await informer.waitForSync();
      await clock.advance(29);
      expect(resyncs()).toBe(0);
      await clock.advance(1);
      expect(resyncs()).toBe(1);
      await clock.advance(30);
      expect(resyncs()).toBe(2);
      await clock.advance(25);
      expect(resyncs()).toBe(2);
    } finally {
      await informer.stop();
    }
    expect(clock.pending).toBe(0); // stop cancels the next resync
  });

  it('accepts the same index function twice and refuses another function under a taken name', () => {
    const byType = (o: KubeObject) => [String(o.metadata?.labels?.type ?? '')];
    const informer = new SharedInformer({
      listerWatcher: new LiveSource(),
      name: 'cm',
      clock,
      indexers: { byType },
    });
    expect(() => informer.addIndexer('byType', byType)).not.toThrow();
    expect(() => informer.addIndexer('byType', (o) => [o.metadata!.name!])).toThrow(
      'informer cm: indexer "byType" is already registered with another function; share one function per index name, or pick another name',
    );
  });

  it('keeps custom indexes and an optional transform; a throwing handler is logged and does not stop the others', async () => {
    const source = new LiveSource();
    source.listed = [cm('a', '1', { labels: { type: 'web' } }), cm('b', '1', { labels: { type: 'db' } })];
    const logger = memoryLogger();
    const informer = new SharedInformer({
      listerWatcher: source,
      name: 'cm',
      logger,
      clock,
      transform: null, // keep objects as they come (managedFields included)
      indexers: { byType: (o) => (o.metadata?.labels?.type ? [o.metadata.labels.type] : []) },
    });
    const r = recorder();
    informer.addEventHandler({
      onAdd: () => {
        throw new Error('handler bug');
      },
    });
    informer.addEventHandler(r.handler);
    informer.start();
    try {
      await informer.waitForSync();
      expect(r.events).toHaveLength(2);
      expect(informer.indexer.byIndex('byType', 'web').map((o) => o.metadata!.name)).toEqual(['a']);
      expect(informer.indexer.byIndex('namespace', 'ns')).toHaveLength(2);
      expect(informer.indexer.get('ns', 'a')!.metadata!.managedFields).toHaveLength(1);
      expect(logger.lines.filter((l) => l.level === 'error').map((l) => l.fields.object)).toEqual([
        'ns/a',
        'ns/b',
      ]);
    } finally {
      await informer.stop();
    }
  });
});
