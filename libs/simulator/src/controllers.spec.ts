import { FakeClock } from '#kube-core';
import { SimControllers } from './controllers.js';

const conflict = () => Object.assign(new Error('the object has been modified'), { code: 409 });

/** Simulated controllers for one kind, "deployment", whose reconcile is `fn`. */
function start(fn: (ns: string, name: string) => void, clock = new FakeClock(0), run = true) {
  const logs: Array<Record<string, unknown>> = [];
  const c = new SimControllers({ deployment: fn }, (e) => logs.push(e), clock);
  if (run) c.start();
  const idle = async () => {
    while (c.busy) await new Promise((r) => setImmediate(r));
  };
  return { c, clock, logs, idle };
}

describe('simulated controllers (runtime Controllers per queue kind)', () => {
  it('deduplicates keys waiting to be reconciled and ignores unknown kinds', async () => {
    const seen: string[] = [];
    const { c, idle } = start((ns, name) => seen.push(`${ns}/${name}`), new FakeClock(0), false);
    c.enqueue('deployment/default/a');
    c.enqueue('deployment/default/a');
    c.enqueue('deployment/default/b');
    c.enqueue('nosuchkind/default/x');
    c.start();
    await idle();
    expect(seen).toEqual(['default/a', 'default/b']);
    await c.stop();
  });

  it('retries a conflict from fresh state at once, other failures after a back-off, and logs them with the key', async () => {
    let calls = 0;
    const { c, clock, logs, idle } = start(() => {
      calls++;
      if (calls === 1) throw conflict();
      if (calls === 2) throw new Error('boom');
    });
    c.enqueue('deployment/default/web');
    await idle();
    // The conflict was retried without waiting; the error (the key's second failure) waits 10 ms × 2².
    expect(calls).toBe(2);
    expect(clock.nextDelay()).toBe(40);
    await clock.advance(39);
    await idle();
    expect(calls).toBe(2);
    await clock.advance(1);
    await idle();
    expect(calls).toBe(3);
    expect(clock.pending).toBe(0);
    const retries = logs.filter((l) => l.msg === 'simulated controller sync failed, will retry');
    expect(retries.map((l) => [l.key, l.code, l.level, l.retryInMs])).toEqual([
      ['deployment/default/web', 409, 'debug', 0],
      ['deployment/default/web', undefined, 'error', 40],
    ]);
    await c.stop();
  });

  it('keeps the earliest delayed wake-up and runs nothing after stop', async () => {
    const seen: string[] = [];
    const { c, clock, idle } = start((_ns, name) => seen.push(name));
    c.enqueue('deployment/default/x', 30);
    c.enqueue('deployment/default/x', 1000);
    expect(clock.pending).toBe(1);
    await clock.advance(29);
    await idle();
    expect(seen).toEqual([]);
    await clock.advance(1);
    await idle();
    expect(seen).toEqual(['x']);
    // A later wake-up replaces a pending one only when it is earlier.
    c.enqueue('deployment/default/w', 50);
    c.enqueue('deployment/default/w', 10);
    expect(clock.pending).toBe(1);
    await clock.advance(10);
    await idle();
    expect(seen).toEqual(['x', 'w']);
    // Nothing runs after stop(): neither the pending wake-up nor keys queued later.
    c.enqueue('deployment/default/y', 30);
    await c.stop();
    c.enqueue('deployment/default/z');
    c.enqueue('deployment/default/z', 5);
    expect(clock.pending).toBe(0);
    await clock.advance(10_000);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['x', 'w']);
  });
});
