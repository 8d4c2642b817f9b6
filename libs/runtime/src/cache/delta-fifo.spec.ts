import { DeletedFinalStateUnknown, DeltaFIFO } from './delta-fifo.js';
import { Indexer } from './store.js';

const obj = (name: string, rv: string, namespace = 'ns') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace, resourceVersion: rv },
});

describe('DeltaFIFO', () => {
  it('coalesces the changes of one key into one entry, in order', async () => {
    const fifo = new DeltaFIFO();
    fifo.add(obj('a', '1'));
    fifo.add(obj('b', '2'));
    fifo.update(obj('a', '3'));
    fifo.delete(obj('a', '3'));
    expect(fifo.len()).toBe(2);
    const first = await fifo.pop();
    expect(first!.key).toBe('ns/a');
    expect(first!.deltas.map((d) => d.type)).toEqual(['Added', 'Updated', 'Deleted']);
    expect((await fifo.pop())!.key).toBe('ns/b');
  });

  it('collapses two deletions in a row, preferring the real final state over a tombstone', async () => {
    const fifo = new DeltaFIFO();
    fifo.add(obj('a', '1'));
    fifo.delete(obj('a', '2'));
    fifo.delete(new DeletedFinalStateUnknown('ns/a', obj('a', '1')));
    const { deltas } = (await fifo.pop())!;
    expect(deltas.map((d) => d.type)).toEqual(['Added', 'Deleted']);
    expect(deltas[1].object).toEqual(obj('a', '2'));
  });

  it('on re-list queues Replaced for listed objects and Deleted tombstones with the last known state for vanished ones', async () => {
    const known = new Indexer();
    known.upsert(obj('kept', '1'));
    known.upsert(obj('gone', '2'));
    const fifo = new DeltaFIFO(known);
    fifo.replace([obj('kept', '5'), obj('new', '6')]);
    const popped = new Map<string, { type: string; object: unknown }[]>();
    while (fifo.len() > 0) {
      const e = (await fifo.pop())!;
      popped.set(e.key, e.deltas);
    }
    expect(popped.get('ns/kept')!.map((d) => d.type)).toEqual(['Replaced']);
    expect(popped.get('ns/new')!.map((d) => d.type)).toEqual(['Replaced']);
    const gone = popped.get('ns/gone')!;
    expect(gone.map((d) => d.type)).toEqual(['Deleted']);
    expect(gone[0].object).toBeInstanceOf(DeletedFinalStateUnknown);
    expect((gone[0].object as DeletedFinalStateUnknown<unknown>).obj).toEqual(obj('gone', '2'));
  });

  it('tombstones an object still queued (unknown to the consumer) that a re-list no longer has', async () => {
    const fifo = new DeltaFIFO(new Indexer());
    fifo.add(obj('ghost', '1'));
    fifo.replace([]);
    const { deltas } = (await fifo.pop())!;
    expect(deltas.map((d) => d.type)).toEqual(['Added', 'Deleted']);
  });

  it('keeps a deletion that arrives while the consumer is still processing the addition', async () => {
    // A watch chunk can carry ADDED and DELETED together: the second arrives before the
    // consumer, woken by the first, has put the object in its store.
    const store = new Indexer();
    const fifo = new DeltaFIFO(store);
    const first = fifo.pop();
    fifo.add(obj('brief', '1'));
    fifo.delete(obj('brief', '2'));
    const added = (await first)!;
    expect(added.deltas.map((d) => d.type)).toEqual(['Added']);
    store.upsert(added.deltas[0].object as ReturnType<typeof obj>);
    fifo.markProcessed();
    expect(fifo.len()).toBe(1);
    expect((await fifo.pop())!.deltas.map((d) => d.type)).toEqual(['Deleted']);
  });

  it('tombstones the entry being processed when a re-list no longer has it', async () => {
    const fifo = new DeltaFIFO(new Indexer());
    const first = fifo.pop();
    fifo.add(obj('gone', '1'));
    fifo.replace([]);
    await first;
    fifo.markProcessed();
    expect(fifo.len()).toBe(1);
    expect((await fifo.pop())!.deltas.map((d) => d.type)).toEqual(['Deleted']);
  });

  it('skips the deletion of an object nobody knows', () => {
    const fifo = new DeltaFIFO(new Indexer());
    fifo.delete(obj('never', '1'));
    expect(fifo.len()).toBe(0);
  });

  it('has synced once everything from the first replace has been popped', async () => {
    const fifo = new DeltaFIFO(new Indexer());
    expect(fifo.hasSynced()).toBe(false);
    fifo.replace([obj('a', '1'), obj('b', '2')]);
    expect(fifo.hasSynced()).toBe(false);
    await fifo.pop();
    expect(fifo.hasSynced()).toBe(false);
    await fifo.pop();
    expect(fifo.hasSynced()).toBe(true);
  });

  it('resync queues Sync only for known keys without pending changes', async () => {
    const known = new Indexer();
    known.upsert(obj('a', '1'));
    known.upsert(obj('b', '1'));
    const fifo = new DeltaFIFO(known);
    fifo.update(obj('a', '2'));
    fifo.resync();
    const a = (await fifo.pop())!;
    const b = (await fifo.pop())!;
    expect(a.deltas.map((d) => d.type)).toEqual(['Updated']);
    expect(b.deltas.map((d) => d.type)).toEqual(['Sync']);
  });

  it('wakes a waiting consumer and releases it on close', async () => {
    const fifo = new DeltaFIFO();
    const waiting = fifo.pop();
    fifo.add(obj('a', '1'));
    expect((await waiting)!.key).toBe('ns/a');
    const idle = fifo.pop();
    fifo.close();
    await expect(idle).resolves.toBeUndefined();
  });
});
