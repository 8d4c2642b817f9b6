import fc from 'fast-check';
import type { KubeObject } from '#kube-core';
import { DeletedFinalStateUnknown, DeltaFIFO, type Delta } from './delta-fifo.js';
import { Indexer } from './store.js';

/**
 * Property: for any interleaving of watch events (add/update/delete), re-lists
 * (replace), resyncs and consumer pops, the DeltaFIFO + consumer pair keeps
 * client-go's invariants and the consumer ends up equal to the last state
 * the producer reported: no lost update, no lost delete.
 */
type Op =
  | { op: 'add' | 'update' | 'delete'; name: string }
  | { op: 'replace'; names: string[] }
  | { op: 'resync' }
  | { op: 'pop' };

const names = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: names.map((name) => ({ op: 'add' as const, name })) },
  { weight: 3, arbitrary: names.map((name) => ({ op: 'update' as const, name })) },
  { weight: 2, arbitrary: names.map((name) => ({ op: 'delete' as const, name })) },
  {
    weight: 1,
    arbitrary: fc.uniqueArray(names, { maxLength: 5 }).map((ns) => ({ op: 'replace' as const, names: ns })),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'resync' as const }) },
  { weight: 4, arbitrary: fc.constant({ op: 'pop' as const }) },
);

const key = (name: string) => `ns/${name}`;

describe('DeltaFIFO properties', () => {
  it('coalesces per key in order, never loses a change or a delete, and syncs after the first list is consumed', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 80 }), async (ops) => {
        const store = new Indexer();
        const fifo = new DeltaFIFO(store);
        /** What the producer last said about each key: its version, or absent. */
        const truth = new Map<string, number>();
        /** Per key, versions queued since its last pop (non-deletion deltas only), in order. */
        const log = new Map<string, number[]>();
        let version = 0;
        // client-go semantics: synced once the first replace has been consumed, or at once if an
        // add/update/delete came before any replace (the Reflector always lists first).
        let populated = false;
        let initialLeft: number | undefined; // pops until synced, fixed by the first replace
        const obj = (name: string, v: number): KubeObject => ({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: 'ns', resourceVersion: String(v) },
        });
        const record = (k: string, v: number): void => void log.set(k, [...(log.get(k) ?? []), v]);

        const pop = async (): Promise<void> => {
          const entry = (await fifo.pop())!;
          if (initialLeft !== undefined && initialLeft > 0) initialLeft--;
          expect(entry.deltas.length).toBeGreaterThan(0);
          expect(fifo.pending(entry.key)).toBeUndefined(); // one entry per key: it left the queue whole
          for (let i = 1; i < entry.deltas.length; i++) {
            expect(entry.deltas[i - 1].type === 'Deleted' && entry.deltas[i].type === 'Deleted').toBe(false);
          }
          const versions = entry.deltas
            .filter((d) => d.type !== 'Deleted' && d.type !== 'Sync')
            .map((d) => Number((d.object as KubeObject).metadata!.resourceVersion));
          expect(versions).toEqual(log.get(entry.key) ?? []);
          log.delete(entry.key);
          for (const d of entry.deltas) apply(entry.key, d);
          fifo.markProcessed();
          expect(fifo.hasSynced()).toBe(populated && (initialLeft ?? 0) === 0);
        };
        const apply = (k: string, d: Delta<KubeObject>): void => {
          if (d.type === 'Sync') expect(d.object).toBe(store.getByKey(k)); // a resync replays the cached state
          if (d.type === 'Deleted') {
            if (d.object instanceof DeletedFinalStateUnknown) expect(d.object.key).toBe(k);
            store.delete(k);
          } else store.upsert(d.object as KubeObject);
        };

        for (const o of ops) {
          if (o.op === 'add' || o.op === 'update') {
            const v = ++version;
            truth.set(key(o.name), v);
            record(key(o.name), v);
            fifo[o.op](obj(o.name, v));
            populated = true;
          } else if (o.op === 'delete') {
            populated = true;
            truth.delete(key(o.name));
            fifo.delete(obj(o.name, ++version));
          } else if (o.op === 'replace') {
            truth.clear();
            for (const n of o.names) {
              const v = ++version;
              truth.set(key(n), v);
              record(key(n), v);
            }
            fifo.replace(o.names.map((n) => obj(n, truth.get(key(n))!)));
            if (!populated) initialLeft = fifo.len();
            populated = true;
          } else if (o.op === 'resync') {
            fifo.resync();
          } else if (fifo.len() > 0) {
            await pop();
          }
          expect(fifo.len()).toBeLessThanOrEqual(5); // never more entries than keys
          expect(fifo.hasSynced()).toBe(populated && (initialLeft ?? 0) === 0);
        }
        while (fifo.len() > 0) await pop();
        const cached = new Map(
          store.list().map((x) => [`ns/${x.metadata!.name}`, Number(x.metadata!.resourceVersion)]),
        );
        expect(cached).toEqual(truth);
      }),
      { numRuns: 500 },
    );
  });
});
