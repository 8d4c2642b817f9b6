import fc from 'fast-check';
import { Registry } from 'prom-client';
import { FakeClock } from '#kube-core';
import { DelayingQueue } from './delaying-queue.js';
import { WorkQueue } from './queue.js';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from './rate-limiters.js';
import { RateLimitingQueue } from './rate-limiting-queue.js';

const tick = () => new Promise((r) => setImmediate(r));

describe('WorkQueue', () => {
  it('queues a key waiting more than once only once, in FIFO order', async () => {
    const q = new WorkQueue<string>();
    for (const k of ['a', 'b', 'a', 'c', 'b']) q.add(k);
    expect(q.len()).toBe(3);
    expect([await q.get(), await q.get(), await q.get()]).toEqual(['a', 'b', 'c']);
  });

  it('never hands a key to two workers at once, and processes a key re-added during processing again after done', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const first = await q.get();
    q.add('a');
    expect(q.len()).toBe(0); // held back: 'a' is processing
    let second: string | undefined;
    void q.get().then((k) => (second = k));
    await tick();
    expect(second).toBeUndefined();
    q.done(first!);
    await tick();
    expect(second).toBe('a');
  });

  it('wakes a waiting worker when a key is added', async () => {
    const q = new WorkQueue<string>();
    const got = q.get();
    q.add('x');
    await expect(got).resolves.toBe('x');
  });

  it('hands out the keys still queued after shutDown, then undefined, and ignores new adds', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.add('b');
    q.shutDown();
    q.add('c');
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
    expect(await q.get()).toBeUndefined();
  });

  it('releases idle workers on shutDown', async () => {
    const q = new WorkQueue<string>();
    const idle = q.get();
    q.shutDown();
    await expect(idle).resolves.toBeUndefined();
  });

  it('shutDownWithDrain waits for in-flight work to be done', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const item = await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await tick();
    expect(drained).toBe(false);
    q.done(item!);
    await drain;
    expect(drained).toBe(true);
  });

  it('records depth, adds, retries and durations (on its clock) when given a registry', async () => {
    const registry = new Registry();
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ name: 'things', registry, clock });
    q.add('a');
    q.add('b');
    await clock.advance(250); // both wait 250 ms before a worker takes them
    const a = (await q.get())!;
    await clock.advance(500);
    q.done(a);
    q.addRateLimited('a');
    let text = await registry.metrics();
    expect(text).toMatch(/workqueue_depth\{name="things"\} 1/);
    expect(text).toMatch(/workqueue_adds_total\{name="things"\} 2/);
    expect(text).toMatch(/workqueue_retries_total\{name="things"\} 1/);
    expect(text).toMatch(/workqueue_work_duration_seconds_count\{name="things"\} 1/);
    expect(text).toMatch(/workqueue_work_duration_seconds_sum\{name="things"\} 0\.5\n/);
    expect(text).toMatch(/workqueue_queue_duration_seconds_sum\{name="things"\} 0\.25\n/);
    expect(text).toMatch(/workqueue_longest_running_processor_seconds\{name="things"\} 0\n/);
    await q.get(); // 'b', left processing
    await clock.advance(1500);
    text = await registry.metrics();
    expect(text).toMatch(/workqueue_longest_running_processor_seconds\{name="things"\} 1\.5\n/);
    q.shutDown();
  });
});

describe('DelayingQueue', () => {
  it('adds a key after its delay, once, at the earliest requested time', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('a', 80);
    q.addAfter('a', 20);
    q.addAfter('a', 200);
    expect(q.len()).toBe(0);
    expect(clock.pending).toBe(1); // one timer per key: the later requests did not add timers
    let got: string | undefined;
    void q.get().then((k) => (got = k));
    await clock.advance(19);
    expect(got).toBeUndefined();
    await clock.advance(1);
    expect(got).toBe('a');
    expect(q.waitingCount()).toBe(0);
    q.done('a');
    await clock.advance(1000); // past the 80 and 200 ms requests: they were merged into the first
    expect(q.len()).toBe(0);
    expect(clock.pending).toBe(0);
    q.shutDown();
  });

  it('adds immediately for a zero delay and drops delayed keys at shutdown', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('now', 0);
    q.addAfter('later', 10_000);
    expect(q.len()).toBe(1);
    q.shutDown();
    expect(q.waitingCount()).toBe(0);
    expect(clock.pending).toBe(0); // the timer is cancelled, not left to fire
    await clock.advance(20_000);
    expect(q.len()).toBe(1);
  });
});

describe('rate limiters', () => {
  it('backs off per item exponentially from 5 ms up to the cap, and forget resets', () => {
    const rl = new ItemExponentialFailureRateLimiter<string>(5, 1_000_000);
    expect([rl.when('a'), rl.when('a'), rl.when('a'), rl.when('b')]).toEqual([5, 10, 20, 5]);
    expect(rl.numRequeues('a')).toBe(3);
    for (let i = 0; i < 40; i++) rl.when('a');
    expect(rl.when('a')).toBe(1_000_000);
    rl.forget('a');
    expect(rl.numRequeues('a')).toBe(0);
    expect(rl.when('a')).toBe(5);
  });

  it('lets a burst through, then paces at qps', async () => {
    const clock = new FakeClock();
    const rl = new BucketRateLimiter<string>(10, 3, clock);
    expect([rl.when('a'), rl.when('b'), rl.when('c')]).toEqual([0, 0, 0]);
    expect(rl.when('d')).toBeCloseTo(100);
    expect(rl.when('e')).toBeCloseTo(200);
    await clock.advance(1000);
    expect(rl.when('f')).toBe(0);
  });

  it('the default combination takes the larger of per-item backoff and the bucket', () => {
    const rl = new MaxOfRateLimiter<string>(
      new ItemExponentialFailureRateLimiter(5, 1000),
      new BucketRateLimiter(10, 1, new FakeClock()),
    );
    expect(rl.when('a')).toBe(5);
    expect(rl.when('b')).toBeCloseTo(100);
    expect(rl.numRequeues('a')).toBe(1);
  });

  it('addRateLimited requeues after the backoff and forget starts over', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({
      rateLimiter: new ItemExponentialFailureRateLimiter(20, 1000),
      clock,
    });
    q.addRateLimited('a');
    expect(q.len()).toBe(0);
    await clock.advance(19);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    expect(await q.get()).toBe('a');
    q.done('a');
    q.addRateLimited('a'); // second failure: 40 ms
    expect(q.numRequeues('a')).toBe(2);
    await clock.advance(39);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    q.forget('a');
    expect(q.numRequeues('a')).toBe(0);
    q.shutDown();
  });

  it("the default rate limiter of a queue paces on the queue's clock", async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({ clock });
    for (let i = 0; i < 100; i++) q.rateLimiter.when(`burst-${i}`); // the bucket's 100 tokens
    q.addRateLimited('a'); // per item 5 ms, but the bucket has no token for 100 ms
    await clock.advance(99);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    await clock.advance(1000); // the bucket refills 10 tokens in a second of the queue's time
    q.addRateLimited('b'); // so only the per-item 5 ms applies
    await clock.advance(5);
    expect(q.len()).toBe(2);
    q.shutDown();
  });
});

type Op =
  | { op: 'add'; key: string }
  | { op: 'get' }
  | { op: 'done'; pick: number }
  | { op: 'failed'; pick: number }
  | { op: 'forget'; key: string }
  | { op: 'shutDown' };

const keys = fc.constantFrom('a', 'b', 'c', 'd');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: keys.map((key) => ({ op: 'add' as const, key })) },
  { weight: 4, arbitrary: fc.constant({ op: 'get' as const }) },
  { weight: 4, arbitrary: fc.nat().map((pick) => ({ op: 'done' as const, pick })) },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ op: 'failed' as const, pick })) },
  { weight: 1, arbitrary: keys.map((key) => ({ op: 'forget' as const, key })) },
  { weight: 1, arbitrary: fc.constant({ op: 'shutDown' as const }) },
);

describe('WorkQueue properties (random add/get/done/forget/shutDown sequences)', () => {
  it('keeps dedup, exclusivity and no-lost-update invariants', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 60 }), async (ops) => {
        // A per-item backoff of 0 ms re-adds at once: the run stays synchronous, no timer is ever needed.
        const clock = new FakeClock();
        const q = new RateLimitingQueue<string>({
          rateLimiter: new ItemExponentialFailureRateLimiter(0, 0),
          clock,
        });
        const held = new Set<string>(); // handed out, not done: the "workers"
        const needsRun = new Set<string>(); // added (before shutdown) since last hand-out
        let shut = false;
        for (const o of ops) {
          if (o.op === 'add') {
            q.add(o.key);
            if (!shut) needsRun.add(o.key);
          } else if (o.op === 'get') {
            if (q.len() === 0) continue;
            const k = (await q.get())!;
            expect(held.has(k)).toBe(false); // never two workers on one key
            held.add(k);
            needsRun.delete(k);
          } else if (o.op === 'done' || o.op === 'failed') {
            if (held.size === 0) continue;
            const k = [...held][o.pick % held.size];
            if (o.op === 'failed') {
              q.addRateLimited(k);
              if (!shut) needsRun.add(k);
            }
            held.delete(k);
            q.done(k);
          } else if (o.op === 'forget') {
            q.forget(o.key);
            expect(q.numRequeues(o.key)).toBe(0);
          } else {
            q.shutDown();
            shut = true;
          }
          // Waiting keys are distinct and none is being processed (len counts distinct queued keys).
          expect(q.len()).toBeLessThanOrEqual(4);
          expect(q.processingCount()).toBe(held.size);
        }
        // Drain: every key that needed a run after its last hand-out is handed out again, exactly once.
        expect(clock.pending).toBe(0); // nothing is waiting for a delay: every re-add already happened
        for (const k of [...held]) {
          held.delete(k);
          q.done(k);
        }
        const drained = q.shutDownWithDrain();
        const seen: string[] = [];
        for (let k = await q.get(); k !== undefined; k = await q.get()) {
          seen.push(k);
          q.done(k);
        }
        await drained;
        expect(new Set(seen).size).toBe(seen.length);
        for (const k of needsRun) expect(seen).toContain(k);
      }),
      { numRuns: 300 },
    );
  });
});
