import { FakeClock, type KubeObject } from '#kube-core';
import { advanceUntil } from '../../test/fake-time.js';
import { KubeApiError } from '../client/api-error.js';
import type { ListOptions, WatchEvent, WatchOptions } from '../client/resource-client.js';
import type { StreamEnd } from '../client/transport.js';
import { DeletedFinalStateUnknown, DeltaFIFO } from './delta-fifo.js';
import { Reflector, type ListerWatcher } from './reflector.js';
import { Indexer } from './store.js';

const cm = (name: string, rv: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', resourceVersion: rv },
});
/** Every test runs on its own fake clock: backoff waits are stepped through, never slept. */
let clock: FakeClock;
beforeEach(() => {
  clock = new FakeClock(0);
});

const gone = () => new KubeApiError(410, 'Expired', 'too old resource version', 'GET', '/api/v1/configmaps');

type ListStep = { items: KubeObject[]; resourceVersion: string } | Error;
/** One watch: gets the options and an `emit` that behaves like the transport (a throwing consumer ends the stream as broken). */
type WatchStep = (
  options: WatchOptions,
  emit: (e: WatchEvent<KubeObject>) => StreamEnd | undefined,
) => Promise<StreamEnd>;

/** A scripted LIST/WATCH source; once a script runs out, lists repeat the last answer and watches idle until aborted. */
class ScriptedSource implements ListerWatcher<KubeObject> {
  readonly listCalls: Array<ListOptions & { pageSize?: number; at: number }> = [];
  readonly watchCalls: WatchOptions[] = [];

  constructor(
    private readonly lists: ListStep[],
    private readonly watches: WatchStep[] = [],
  ) {}

  async listAll(
    options: ListOptions & { pageSize?: number },
  ): Promise<{ items: KubeObject[]; resourceVersion: string }> {
    this.listCalls.push({ ...options, at: clock.now() });
    const step = this.lists.length > 1 ? this.lists.shift()! : this.lists[0];
    if (step instanceof Error) throw step;
    return { items: step.items.map((o) => structuredClone(o)), resourceVersion: step.resourceVersion };
  }

  watch(options: WatchOptions, onEvent: (event: WatchEvent<KubeObject>) => void): Promise<StreamEnd> {
    this.watchCalls.push(options);
    const emit = (e: WatchEvent<KubeObject>): StreamEnd | undefined => {
      try {
        onEvent(e);
        return undefined;
      } catch (error) {
        return { reason: 'broken', error: error as Error };
      }
    };
    const step = this.watches.shift() ?? idleUntilAborted;
    return step(options, emit);
  }
}

const idleUntilAborted: WatchStep = (options) =>
  new Promise((resolve) => {
    if (options.signal?.aborted) return resolve({ reason: 'aborted' });
    options.signal?.addEventListener('abort', () => resolve({ reason: 'aborted' }), { once: true });
  });

/** The consumer side of an informer, reduced to the store: applies every popped delta. */
function consume(fifo: DeltaFIFO, store: Indexer, deletes: string[]): Promise<void> {
  return (async () => {
    for (let e = await fifo.pop(); e; e = await fifo.pop()) {
      for (const d of e.deltas) {
        if (d.type === 'Deleted') {
          store.delete(e.key);
          deletes.push(e.key + (d.object instanceof DeletedFinalStateUnknown ? ' (tombstone)' : ''));
        } else store.upsert(d.object as KubeObject);
      }
      fifo.markProcessed();
    }
  })();
}

/** Steps the fake clock (backoff timers) until `check` holds. */
const until = (check: () => boolean, what: string): Promise<void> => advanceUntil(clock, check, what);

function harness(
  source: ScriptedSource,
  extra: { backoffInitialMs?: number; backoffMaxMs?: number; pageSize?: number } = {},
) {
  const store = new Indexer();
  const fifo = new DeltaFIFO(store);
  const deletes: string[] = [];
  const reflector = new Reflector({
    listerWatcher: source,
    fifo,
    name: 'test',
    backoffInitialMs: 5,
    backoffMaxMs: 40,
    ...extra,
    clock,
  });
  const abort = new AbortController();
  const running = reflector.run(abort.signal);
  const consuming = consume(fifo, store, deletes);
  const names = () => store.listKeys().sort();
  const stop = async (): Promise<void> => {
    abort.abort();
    await running;
    fifo.close();
    await consuming;
  };
  return { store, fifo, reflector, deletes, names, stop };
}

describe('Reflector', () => {
  it('lists, then watches from the list resourceVersion with bookmarks, and resumes a closed watch from the last seen one', async () => {
    const source = new ScriptedSource(
      [{ items: [cm('a', '10'), cm('b', '10')], resourceVersion: '10' }],
      [
        async (_o, emit) => {
          emit({ type: 'ADDED', object: cm('c', '11') });
          emit({ type: 'MODIFIED', object: cm('a', '12') });
          emit({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '15' } } });
          return { reason: 'closed' }; // the server's timeoutSeconds ran out
        },
      ],
    );
    const r = harness(source);
    try {
      await until(() => source.watchCalls.length === 2, 'the second watch');
      expect(source.watchCalls[0]).toMatchObject({ resourceVersion: '10', allowWatchBookmarks: true });
      expect(source.watchCalls[1]).toMatchObject({ resourceVersion: '15', allowWatchBookmarks: true });
      // client-go's randomised watch timeout: [300, 600) s, so watches do not all restart together.
      for (const w of source.watchCalls) expect(w.timeoutSeconds).toBeGreaterThanOrEqual(300);
      for (const w of source.watchCalls) expect(w.timeoutSeconds).toBeLessThan(600);
      await until(() => r.names().length === 3, 'three objects cached');
      expect(r.store.getByKey('ns/a')?.metadata?.resourceVersion).toBe('12');
      expect(source.listCalls).toHaveLength(1); // a normal close is resumed, not re-listed
      expect(r.reflector.lastSyncResourceVersion()).toBe('15');
    } finally {
      await r.stop();
    }
  });

  it('re-lists after a jittered backoff on 410 Gone at watch start, with tombstones for objects deleted meanwhile', async () => {
    const source = new ScriptedSource(
      [
        { items: [cm('a', '10'), cm('b', '10')], resourceVersion: '10' },
        { items: [cm('a', '20')], resourceVersion: '20' },
      ],
      [
        async () => {
          throw gone();
        },
      ],
    );
    const r = harness(source, { backoffInitialMs: 30, backoffMaxMs: 100 });
    try {
      await until(() => source.listCalls.length === 2 && r.names().length === 1, 're-list to apply');
      expect(r.names()).toEqual(['ns/a']);
      expect(r.deletes).toEqual(['ns/b (tombstone)']);
      // The first backoff: 30 ms with up to 100 % jitter, on the reflector's clock.
      const gap = source.listCalls[1].at - source.listCalls[0].at;
      expect(gap).toBeGreaterThanOrEqual(30);
      expect(gap).toBeLessThan(60);
      expect(r.reflector.stats.relistsOnGone).toBe(1);
      await until(() => source.watchCalls.length === 2, 'watch after the re-list');
      expect(source.watchCalls[1].resourceVersion).toBe('20');
    } finally {
      await r.stop();
    }
  });

  it('re-lists on an ERROR event inside the stream (410 or any other status)', async () => {
    const source = new ScriptedSource(
      [
        { items: [cm('a', '10')], resourceVersion: '10' },
        { items: [cm('a', '30'), cm('z', '30')], resourceVersion: '30' },
        { items: [cm('z', '40')], resourceVersion: '40' },
      ],
      [
        async (_o, emit) =>
          emit({
            type: 'ERROR',
            object: { kind: 'Status', code: 410, reason: 'Expired', message: 'too old' } as KubeObject,
          })!,
        async (_o, emit) =>
          emit({
            type: 'ERROR',
            object: {
              kind: 'Status',
              code: 500,
              reason: 'InternalError',
              message: 'etcd hiccup',
            } as KubeObject,
          })!,
      ],
    );
    const r = harness(source);
    try {
      await until(() => source.listCalls.length === 3 && r.names().join() === 'ns/z', 'two re-lists');
      expect(r.deletes).toEqual(['ns/a (tombstone)']);
      expect(r.reflector.stats.relistsOnGone).toBe(1);
    } finally {
      await r.stop();
    }
  });

  it('backs off exponentially and never hot-loops when every watch is refused with 410', async () => {
    const source = new ScriptedSource(
      [{ items: [cm('a', '1')], resourceVersion: '1' }],
      Array.from({ length: 1000 }, () => async () => {
        throw gone();
      }),
    );
    const r = harness(source, { backoffInitialMs: 10, backoffMaxMs: 80 });
    await clock.advance(400); // 400 ms of the reflector's time, every timer in it fired in order
    await r.stop();
    const lists = source.listCalls.length;
    // Without backoff this would be a hot loop (every list and watch answers at once); with
    // 10 → 20 → 40 → 80 → 80 ms, each plus up to 100 % jitter, 400 ms hold 5 to 8 lists.
    expect(lists).toBeGreaterThanOrEqual(5);
    expect(lists).toBeLessThanOrEqual(8);
    const gaps = source.listCalls.slice(1).map((c, i) => c.at - source.listCalls[i].at);
    gaps.forEach((gap, i) => {
      const base = Math.min(10 * 2 ** i, 80); // doubling, capped
      expect(gap).toBeGreaterThanOrEqual(base);
      expect(gap).toBeLessThan(2 * base);
    });
  });

  it('treats a silent watch as dead: passes the idle timeout down and restarts from the same resourceVersion without re-listing', async () => {
    const source = new ScriptedSource(
      [{ items: [cm('a', '10')], resourceVersion: '10' }],
      [async () => ({ reason: 'idle' })],
    );
    const store = new Indexer();
    const fifo = new DeltaFIFO(store);
    const reflector = new Reflector({
      listerWatcher: source,
      fifo,
      name: 't',
      idleTimeoutMs: 1234,
      watchTimeoutSeconds: 60,
      clock,
    });
    const abort = new AbortController();
    const running = reflector.run(abort.signal);
    try {
      await until(() => source.watchCalls.length === 2, 'the restarted watch');
      expect(source.watchCalls[0]).toMatchObject({
        idleTimeoutMs: 1234,
        timeoutSeconds: 60,
        resourceVersion: '10',
      });
      expect(source.watchCalls[1].resourceVersion).toBe('10');
      expect(reflector.stats).toMatchObject({ idleRestarts: 1, lists: 1 });
    } finally {
      abort.abort();
      await running;
    }
  });

  it('resumes a broken or unreachable watch without re-listing', async () => {
    const source = new ScriptedSource(
      [{ items: [], resourceVersion: '5' }],
      [
        async (_o, emit) => {
          emit({ type: 'ADDED', object: cm('a', '6') });
          return { reason: 'broken', error: new Error('ECONNRESET') };
        },
        async () => {
          throw new KubeApiError(0, 'NetworkError', 'connect ECONNREFUSED', 'GET', '/api/v1/configmaps');
        },
      ],
    );
    const r = harness(source);
    try {
      await until(() => source.watchCalls.length === 3, 'third watch');
      expect(source.watchCalls.map((w) => w.resourceVersion)).toEqual(['5', '6', '6']);
      expect(source.listCalls).toHaveLength(1);
    } finally {
      await r.stop();
    }
  });

  it('lists in pages, and falls back to one unpaginated list when a continue token expires', async () => {
    const source = new ScriptedSource([gone(), { items: [cm('a', '3')], resourceVersion: '3' }]);
    const r = harness(source, { pageSize: 2 });
    try {
      await until(() => r.names().length === 1, 'the list');
      expect(source.listCalls.map((c) => c.pageSize)).toEqual([2, 0]);
    } finally {
      await r.stop();
    }
  });

  it('applies the transform before objects reach the FIFO, on list and on watch', async () => {
    const withFields = (name: string, rv: string): KubeObject => ({
      ...cm(name, rv),
      metadata: { ...cm(name, rv).metadata, managedFields: [{ manager: 'x' }] },
    });
    const source = new ScriptedSource(
      [{ items: [withFields('a', '1')], resourceVersion: '1' }],
      [
        async (o, emit) => {
          emit({ type: 'ADDED', object: withFields('b', '2') });
          return idleUntilAborted(o, emit);
        },
      ],
    );
    const store = new Indexer();
    const fifo = new DeltaFIFO(store);
    const deletes: string[] = [];
    const reflector = new Reflector({
      listerWatcher: source,
      fifo,
      name: 't',
      clock,
      transform: (obj) => {
        const { managedFields: _m, ...metadata } = obj.metadata!;
        return { ...obj, metadata };
      },
    });
    const abort = new AbortController();
    const running = reflector.run(abort.signal);
    const consuming = consume(fifo, store, deletes);
    try {
      await until(() => store.size() === 2, 'both objects');
      for (const o of store.list()) expect(o.metadata?.managedFields).toBeUndefined();
    } finally {
      abort.abort();
      await running;
      fifo.close();
      await consuming;
    }
  });
});
