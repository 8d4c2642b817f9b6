import { FakeClock } from '#kube-core';
import { DelayingQueue } from './delaying-queue.js';
import { LOW_PRIORITY, PriorityFifo } from './priority-fifo.js';
import { WorkQueue } from './queue.js';
import { ItemExponentialFailureRateLimiter } from './rate-limiters.js';
import { RateLimitingQueue } from './rate-limiting-queue.js';

/** Takes every waiting item, marking each done. */
async function drain(q: WorkQueue<string>): Promise<string[]> {
  const out: string[] = [];
  while (q.len() > 0) {
    const k = (await q.get())!;
    out.push(k);
    q.done(k);
  }
  return out;
}

describe('PriorityFifo', () => {
  it('serves higher priorities first, FIFO within one, each item once', () => {
    const f = new PriorityFifo<string>();
    f.push('low1', -100);
    f.push('a', 0);
    f.push('low2', -100);
    f.push('urgent', 10);
    f.push('b', 0);
    f.push('a', -100); // lower than it waits at: no change
    const out: string[] = [];
    for (let e = f.shift(); e; e = f.shift()) out.push(`${e.item}@${e.priority}`);
    expect(out).toEqual(['urgent@10', 'a@0', 'b@0', 'low1@-100', 'low2@-100']);
    expect(f.length).toBe(0);
  });

  it('raising a waiting item moves it to the back of its new level; its old place is not served again', () => {
    const f = new PriorityFifo<string>();
    f.push('x', -100);
    f.push('y', -100);
    f.push('a', 0);
    f.push('x', 0);
    expect(f.length).toBe(3);
    expect(f.shift()).toEqual({ item: 'a', priority: 0 });
    expect(f.shift()).toEqual({ item: 'x', priority: 0 });
    f.push('x', -100); // queued again after it was served: behind y, not at its stale first place
    expect(f.shift()).toEqual({ item: 'y', priority: -100 });
    expect(f.shift()).toEqual({ item: 'x', priority: -100 });
    expect(f.shift()).toBeUndefined();
  });
});

describe('WorkQueue priorities', () => {
  it('a change added after a backlog of resyncs is handed out first', async () => {
    const q = new WorkQueue<string>();
    for (let i = 0; i < 1000; i++) q.add(`resync-${i}`, LOW_PRIORITY);
    q.add('changed');
    expect(await q.get()).toBe('changed');
    expect(q.priorityOf('changed')).toBe(0);
    q.done('changed');
    expect(q.priorityOf('changed')).toBeUndefined();
    expect(await q.get()).toBe('resync-0');
    expect(q.priorityOf('resync-0')).toBe(LOW_PRIORITY);
  });

  it('an item waiting at low priority is raised by a change, never lowered by a resync', async () => {
    const q = new WorkQueue<string>();
    q.add('a', LOW_PRIORITY);
    q.add('b', LOW_PRIORITY);
    q.add('b'); // b changed
    q.add('c');
    q.add('c', LOW_PRIORITY); // c resynced while waiting for its change
    expect(q.len()).toBe(3);
    expect(await drain(q)).toEqual(['b', 'c', 'a']);
  });

  it('an item re-added while processing is queued again at the highest priority asked for', async () => {
    const q = new WorkQueue<string>();
    q.add('a', LOW_PRIORITY);
    q.add('x', LOW_PRIORITY);
    const a = (await q.get())!;
    q.add('a', LOW_PRIORITY);
    q.add('a');
    q.add('y', LOW_PRIORITY);
    q.done(a);
    expect(await drain(q)).toEqual(['a', 'x', 'y']);
  });

  it('a delayed add keeps its priority; two delays of one item: the earliest time, the highest priority', async () => {
    const clock = new FakeClock();
    const q = new DelayingQueue<string>({ clock });
    q.addAfter('later', 100, LOW_PRIORITY);
    q.addAfter('later', 50); // earlier and higher: both win
    q.addAfter('slow', 20, LOW_PRIORITY);
    q.addAfter('slow', 80); // later: the time stays 20, the priority rises
    q.add('bulk', LOW_PRIORITY);
    await clock.advance(20);
    expect(q.len()).toBe(2);
    expect(q.priorityOf('slow')).toBe(0);
    await clock.advance(30);
    expect(await drain(q)).toEqual(['slow', 'later', 'bulk']);
    expect(clock.pending).toBe(0);
  });

  it('a rate-limited retry keeps the priority it is given', async () => {
    const clock = new FakeClock();
    const q = new RateLimitingQueue<string>({
      rateLimiter: new ItemExponentialFailureRateLimiter(10, 1000),
      clock,
    });
    q.add('resync', LOW_PRIORITY);
    q.addRateLimited('retry-low', LOW_PRIORITY);
    q.addRateLimited('retry');
    await clock.advance(10);
    expect(await drain(q)).toEqual(['retry', 'resync', 'retry-low']);
  });
});
