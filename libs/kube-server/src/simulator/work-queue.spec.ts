import { FakeClock } from '#kube-core';
import { WorkQueue } from './work-queue.js';

const conflict = () => Object.assign(new Error('the object has been modified'), { code: 409 });

describe('simulator work queue', () => {
  it('deduplicates keys queued before a drain', async () => {
    const seen: string[] = [];
    const q = new WorkQueue(
      (k) => seen.push(k),
      () => undefined,
    );
    q.add('a');
    q.add('a');
    q.add('b');
    await q.idle();
    expect(seen).toEqual(['a', 'b']);
    q.stop();
  });

  it('retries a conflict from fresh state at once, other failures after a back-off, and logs them with the key', async () => {
    const clock = new FakeClock(0);
    const logs: Array<Record<string, unknown>> = [];
    let calls = 0;
    const q = new WorkQueue(
      () => {
        calls++;
        if (calls === 1) throw conflict();
        if (calls === 2) throw new Error('boom');
      },
      (e) => logs.push(e),
      clock,
    );
    q.add('deployment/default/web');
    await q.idle();
    // The conflict was retried without waiting; the error (the key's second failure) waits 10 ms × 2².
    expect(calls).toBe(2);
    expect(clock.nextDelay()).toBe(40);
    await clock.advance(39);
    await q.idle();
    expect(calls).toBe(2);
    await clock.advance(1);
    await q.idle();
    expect(calls).toBe(3);
    expect(clock.pending).toBe(0);
    expect(logs.map((l) => [l.key, l.code, l.level, l.retryInMs])).toEqual([
      ['deployment/default/web', 409, 'debug', 0],
      ['deployment/default/web', undefined, 'error', 40],
    ]);
    q.stop();
  });

  it('keeps the earliest delayed wake-up and cancels everything on stop', async () => {
    const clock = new FakeClock(0);
    const seen: string[] = [];
    const q = new WorkQueue(
      (k) => seen.push(k),
      () => undefined,
      clock,
    );
    q.addAfter('x', 30);
    q.addAfter('x', 1000);
    expect(clock.pending).toBe(1);
    await clock.advance(29);
    await q.idle();
    expect(seen).toEqual([]);
    await clock.advance(1);
    await q.idle();
    expect(seen).toEqual(['x']);
    // A later wake-up replaces a pending one only when it is earlier.
    q.addAfter('w', 50);
    q.addAfter('w', 10);
    expect(clock.pending).toBe(1);
    await clock.advance(10);
    await q.idle();
    expect(seen).toEqual(['x', 'w']);
    // Nothing fires after stop(): neither the pending timer nor keys added later.
    q.addAfter('y', 30);
    q.add('v');
    q.stop();
    q.add('z');
    q.addAfter('z', 5);
    expect(clock.pending).toBe(0);
    await clock.advance(10_000);
    await q.idle();
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['x', 'w']);
  });
});
