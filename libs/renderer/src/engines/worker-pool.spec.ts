import { Worker } from 'node:worker_threads';
import { FakeClock, eventually } from '#kube-core';
import {
  WorkerCrashError,
  WorkerLimitError,
  WorkerPool,
  WorkerTaskError,
  WorkerTimeoutError,
  type WorkerPoolOptions,
} from './worker-pool.js';

type Task =
  | { op: 'echo'; value: unknown }
  | { op: 'spin' }
  | { op: 'exit' }
  | { op: 'fail' }
  | { op: 'fatal' }
  | { op: 'thread' }
  | { op: 'meet'; cell: SharedArrayBuffer; parties: number }
  | { op: 'hold'; cell: SharedArrayBuffer };

// A real worker thread speaking the pool's protocol; each op exercises one way a task can end.
// `meet` counts itself in and waits (up to 20 s) until `parties` tasks are in: it returns true
// only if that many ran at the same time. `hold` waits until the test releases it.
const WORKER_SOURCE = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.postMessage({ type: 'ready', tid: threadId });
parentPort.on('message', ({ id, task }) => {
  switch (task.op) {
    case 'echo': return parentPort.postMessage({ id, ok: true, value: task.value });
    case 'thread': return parentPort.postMessage({ id, ok: true, value: threadId });
    case 'spin': for (;;) {}
    case 'exit': process.exit(3);
    case 'fail': return parentPort.postMessage({ id, ok: false, error: 'bad input' });
    case 'fatal': return parentPort.postMessage({ id, ok: false, error: 'runtime died', fatal: true });
    case 'meet': {
      const cell = new Int32Array(task.cell);
      Atomics.add(cell, 0, 1);
      Atomics.notify(cell, 0);
      const deadline = Date.now() + 20000;
      for (let n = Atomics.load(cell, 0); n < task.parties && Date.now() < deadline; n = Atomics.load(cell, 0)) {
        Atomics.wait(cell, 0, n, 100);
      }
      return parentPort.postMessage({ id, ok: true, value: Atomics.load(cell, 0) >= task.parties });
    }
    case 'hold': {
      const cell = new Int32Array(task.cell);
      Atomics.wait(cell, 0, 0);
      return parentPort.postMessage({ id, ok: true, value: 'held' });
    }
  }
});
`;

const pools: WorkerPool<Task, unknown>[] = [];
/** A pool whose deadlines only pass when the test advances `clock`. */
function pool(
  size = 1,
  source = WORKER_SOURCE,
  clock = new FakeClock(),
  more: Partial<WorkerPoolOptions> = {},
): WorkerPool<Task, unknown> {
  const p = new WorkerPool<Task, unknown>({
    size,
    clock,
    createWorker: () => new Worker(source, { eval: true }),
    ...more,
  });
  pools.push(p);
  return p;
}

/** A cell a `hold` task waits on until `release` is called. */
function latch(): { cell: SharedArrayBuffer; release(): void } {
  const cell = new SharedArrayBuffer(4);
  return {
    cell,
    release: () => {
      Atomics.store(new Int32Array(cell), 0, 1);
      Atomics.notify(new Int32Array(cell), 0);
    },
  };
}

const busy = (p: WorkerPool<Task, unknown>, n: number) =>
  eventually(() => p.stats.busy === n, `${n} busy workers`);

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('WorkerPool', () => {
  it('runs tasks in a worker and returns their results', async () => {
    const p = pool(2);
    await expect(p.run({ op: 'echo', value: { a: [1, 2] } }, { timeoutMs: 5000 })).resolves.toEqual({
      a: [1, 2],
    });
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((v) => p.run({ op: 'echo', value: v }, { timeoutMs: 5000 })),
    );
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(p.stats.workers).toBeLessThanOrEqual(2);
  });

  it('runs tasks in parallel up to its size', async () => {
    const p = pool(2);
    const cell = new SharedArrayBuffer(4);
    // Each task finishes true only if the other was running at the same time.
    const met = await Promise.all([
      p.run({ op: 'meet', cell, parties: 2 }, { timeoutMs: 5000 }),
      p.run({ op: 'meet', cell, parties: 2 }, { timeoutMs: 5000 }),
    ]);
    expect(met).toEqual([true, true]);
    expect(p.stats.workers).toBe(2);
  });

  it('terminates a task that runs past its deadline, then replaces the worker', async () => {
    const clock = new FakeClock();
    const p = pool(1, WORKER_SOURCE, clock);
    const first = await p.run({ op: 'thread' }, { timeoutMs: 5000 });
    const outcome = p.run({ op: 'spin' }, { timeoutMs: 300 }).then(
      () => 'finished',
      (err: unknown) => err,
    );
    await busy(p, 1);
    await clock.advance(299);
    expect(p.stats).toMatchObject({ busy: 1, replaced: 0 });
    await clock.advance(1);
    expect(await outcome).toBeInstanceOf(WorkerTimeoutError);
    const second = await p.run({ op: 'thread' }, { timeoutMs: 5000 });
    expect(second).not.toBe(first);
    expect(p.stats.replaced).toBe(1);
  });

  it('does not charge the time a task waits in the queue against its deadline', async () => {
    const clock = new FakeClock();
    const p = pool(1, WORKER_SOURCE, clock);
    const gate = latch();
    const slow = p.run({ op: 'hold', cell: gate.cell }, { timeoutMs: 5000 });
    const queued = p.run({ op: 'echo', value: 'ok' }, { timeoutMs: 300 });
    await busy(p, 1);
    // The queued task's 300 ms pass while it waits: it must not time out for that.
    await clock.advance(1000);
    expect(p.stats).toMatchObject({ busy: 1, queued: 1 });
    gate.release();
    await expect(slow).resolves.toBe('held');
    await expect(queued).resolves.toBe('ok');
  });

  it('reports a worker that exits mid-task as a crash and replaces it', async () => {
    const p = pool(1);
    await expect(p.run({ op: 'exit' }, { timeoutMs: 5000 })).rejects.toThrow(WorkerCrashError);
    await expect(p.run({ op: 'echo', value: 1 }, { timeoutMs: 5000 })).resolves.toBe(1);
    expect(p.stats.replaced).toBe(1);
  });

  it('replaces a worker that reports a fatal error, never reusing it', async () => {
    const p = pool(1);
    const first = await p.run({ op: 'thread' }, { timeoutMs: 5000 });
    await expect(p.run({ op: 'fatal' }, { timeoutMs: 5000 })).rejects.toThrow(/runtime died/);
    expect(await p.run({ op: 'thread' }, { timeoutMs: 5000 })).not.toBe(first);
  });

  it('keeps the worker after an ordinary task error', async () => {
    const p = pool(1);
    const first = await p.run({ op: 'thread' }, { timeoutMs: 5000 });
    await expect(p.run({ op: 'fail' }, { timeoutMs: 5000 })).rejects.toEqual(
      new WorkerTaskError('bad input'),
    );
    expect(await p.run({ op: 'thread' }, { timeoutMs: 5000 })).toBe(first);
    expect(p.stats.replaced).toBe(0);
  });

  it('fails queued tasks when workers cannot start', async () => {
    const p = pool(1, 'throw new Error("broken worker file")');
    await expect(p.run({ op: 'echo', value: 1 }, { timeoutMs: 5000 })).rejects.toThrow(
      /could not start: .*broken worker file/,
    );
  });

  it('lets a starting worker finish starting before close() terminates it', async () => {
    // Node 20 can lose a worker terminated mid-start (no 'exit', close() never settles).
    const gate = latch();
    const events: string[] = [];
    const p = new WorkerPool<Task, unknown>({
      size: 1,
      createWorker: () => {
        const source = `const { workerData } = require('node:worker_threads');
          Atomics.wait(new Int32Array(workerData), 0, 0);
          ${WORKER_SOURCE}`;
        const worker = new Worker(source, { eval: true, workerData: gate.cell });
        worker.on('message', (m: { type?: string }) => events.push(m.type ?? 'reply'));
        worker.on('exit', () => events.push('exit'));
        return worker;
      },
    });
    p.warm();
    let closed = false;
    const closing = p.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    expect(closed).toBe(false);
    gate.release();
    await closing;
    expect(events).toEqual(['ready', 'exit']);
  });

  it('rejects queued and new tasks once closed', async () => {
    const p = pool(1);
    const gate = latch();
    const running = expect(p.run({ op: 'hold', cell: gate.cell }, { timeoutMs: 5000 })).rejects.toThrow(
      /closed/,
    );
    const queued = expect(p.run({ op: 'echo', value: 1 }, { timeoutMs: 5000 })).rejects.toThrow(/closed/);
    await busy(p, 1);
    await p.close();
    await running;
    await queued;
    await expect(p.run({ op: 'echo', value: 1 }, { timeoutMs: 5000 })).rejects.toThrow(/closed/);
  });

  describe('CPU time', () => {
    /** CPU time by thread id, as the test sets it. */
    const cpu = new Map<number, number>();
    /** Priority changes by thread id, in order; `restore` answers `restorable`. */
    const priorities: string[] = [];
    let restorable = true;
    const priority = {
      lower: (tid: number) => (priorities.push(`lower ${tid}`), true),
      restore: (tid: number) => (priorities.push(`restore ${tid}`), restorable),
    };
    beforeEach(() => {
      priorities.length = 0;
      restorable = true;
    });
    const limited = (clock: FakeClock) =>
      pool(1, WORKER_SOURCE, clock, {
        cpuLimitMs: 1000,
        cpuPollMs: 100,
        cpuTimeOf: (t) => cpu.get(t) ?? 0,
        priority,
      });

    it('runs a task past a fifth of its CPU limit at the least priority, restored for the next task', async () => {
      const clock = new FakeClock();
      const p = limited(clock);
      const tid = (await p.run({ op: 'thread' }, { timeoutMs: 60_000 })) as number;
      cpu.set(tid, 0);
      const gate = latch();
      const outcome = p.run({ op: 'hold', cell: gate.cell }, { timeoutMs: 60_000 });
      await busy(p, 1);
      cpu.set(tid, 150);
      await clock.advance(100);
      expect(priorities).toEqual([]);
      cpu.set(tid, 250);
      await clock.advance(100);
      await clock.advance(100);
      expect(priorities).toEqual([`lower ${tid}`]); // once, however long it goes on
      gate.release();
      await expect(outcome).resolves.toBe('held');
      expect(priorities).toEqual([`lower ${tid}`, `restore ${tid}`]);
      expect(await p.run({ op: 'thread' }, { timeoutMs: 60_000 })).toBe(tid);
    });

    it('replaces a worker whose priority cannot be raised again', async () => {
      const clock = new FakeClock();
      const p = limited(clock);
      const tid = (await p.run({ op: 'thread' }, { timeoutMs: 60_000 })) as number;
      cpu.set(tid, 0);
      restorable = false;
      const gate = latch();
      const outcome = p.run({ op: 'hold', cell: gate.cell }, { timeoutMs: 60_000 });
      await busy(p, 1);
      cpu.set(tid, 500);
      await clock.advance(100);
      gate.release();
      await expect(outcome).resolves.toBe('held'); // the task itself succeeded
      expect(p.stats.replaced).toBe(1);
      expect(await p.run({ op: 'thread' }, { timeoutMs: 60_000 })).not.toBe(tid);
    });

    it("stops a task once its worker's own CPU time passes the limit, and replaces the worker", async () => {
      const clock = new FakeClock();
      const p = limited(clock);
      const tid = (await p.run({ op: 'thread' }, { timeoutMs: 60_000 })) as number;
      cpu.set(tid, 5000); // what the worker used before the task does not count
      const outcome = p
        .run({ op: 'hold', cell: latch().cell }, { timeoutMs: 60_000 })
        .catch((e: unknown) => e);
      await busy(p, 1);
      cpu.set(tid, 5900);
      await clock.advance(100);
      expect(p.stats).toMatchObject({ busy: 1, replaced: 0 });
      cpu.set(tid, 6001);
      await clock.advance(100);
      const err = await outcome;
      expect(err).toBeInstanceOf(WorkerLimitError);
      expect((err as Error).message).toBe('cpu time limit 1s exceeded');
      expect(await p.run({ op: 'thread' }, { timeoutMs: 60_000 })).not.toBe(tid);
    });

    it('lets a task that waits (a busy machine) run past the limit in wall time', async () => {
      const clock = new FakeClock();
      const p = limited(clock);
      const gate = latch();
      const outcome = p.run({ op: 'hold', cell: gate.cell }, { timeoutMs: 60_000 });
      await busy(p, 1);
      await clock.advance(10_000); // ten times the CPU limit, with no CPU used
      expect(p.stats).toMatchObject({ busy: 1, replaced: 0 });
      gate.release();
      await expect(outcome).resolves.toBe('held');
    });

    it('falls back to wall time where CPU time cannot be read, and says so once', async () => {
      const clock = new FakeClock();
      const said: string[] = [];
      const p = pool(1, WORKER_SOURCE, clock, {
        cpuLimitMs: 1000,
        cpuTimeOf: () => undefined,
        warn: (m) => said.push(m),
      });
      const outcome = p
        .run({ op: 'hold', cell: latch().cell }, { timeoutMs: 60_000 })
        .catch((e: unknown) => e);
      await busy(p, 1);
      await clock.advance(999);
      expect(p.stats.busy).toBe(1);
      await clock.advance(1);
      expect(await outcome).toBeInstanceOf(WorkerLimitError);
      await p.run({ op: 'echo', value: 1 }, { timeoutMs: 60_000 });
      expect(said).toEqual([expect.stringMatching(/limited by wall time/)]);
    });

    it('stops a real busy loop by the CPU time /proc reports', async () => {
      // The worker reports its real thread id; the pool reads its real CPU time on the wall clock.
      const source = `const tid = Number(require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]);
        ${WORKER_SOURCE.replace('tid: threadId', 'tid')}`;
      const p = new WorkerPool<Task, unknown>({
        size: 1,
        cpuLimitMs: 200,
        cpuPollMs: 20,
        createWorker: () => new Worker(source, { eval: true }),
      });
      pools.push(p);
      const err = await p.run({ op: 'spin' }, { timeoutMs: 600_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkerLimitError);
      expect((err as WorkerLimitError).limit).toBe('cpu');
      await expect(p.run({ op: 'echo', value: 'next' }, { timeoutMs: 600_000 })).resolves.toBe('next');
    });
  });

  describe('fairness between tenants', () => {
    const hold = (p: WorkerPool<Task, unknown>, tenant: string) => {
      const gate = latch();
      const done = p.run({ op: 'hold', cell: gate.cell }, { timeoutMs: 60_000, tenant });
      return { done, release: gate.release };
    };
    const running = (p: WorkerPool<Task, unknown>) => Object.fromEntries(p.busyByTenant);

    it("starts B's task next when A's were queued first, on a reserve worker A may not take", async () => {
      const p = pool(1);
      const a1 = hold(p, 'a');
      await busy(p, 1);
      const a2 = hold(p, 'a');
      const a3 = hold(p, 'a');
      const b1 = hold(p, 'b');
      const c1 = hold(p, 'c');
      await eventually(() => running(p).b === 1 && running(p), 'b running beside a');
      expect(running(p)).toEqual({ a: 1, b: 1 });
      expect(p.stats).toMatchObject({ workers: 2, queued: 3 });
      b1.release();
      await b1.done;
      // The free worker goes to c, not to a, which already holds its share.
      await eventually(() => running(p).c === 1 && running(p), 'c running beside a');
      expect(running(p)).toEqual({ a: 1, c: 1 });
      c1.release();
      a1.release();
      await eventually(() => running(p).a === 1 && p.stats.queued === 1 && running(p), 'a2 running');
      a2.release();
      await eventually(() => p.stats.queued === 0 && running(p).a === 1, 'a3 running');
      a3.release();
      await Promise.all([a1.done, a2.done, a3.done, c1.done]);
      expect(p.stats.workers).toBe(2);
    });

    it('gives one tenant alone all `size` workers, and no more', async () => {
      const p = pool(2);
      const jobs = [hold(p, 'a'), hold(p, 'a'), hold(p, 'a')];
      await busy(p, 2);
      expect(p.stats).toMatchObject({ workers: 2, queued: 1 });
      for (const j of jobs) j.release();
      await Promise.all(jobs.map((j) => j.done));
    });
  });

  describe('abort', () => {
    it('drops a queued task', async () => {
      const p = pool(1);
      const gate = latch();
      const running = p.run({ op: 'hold', cell: gate.cell }, { timeoutMs: 60_000 });
      const controller = new AbortController();
      const queued = p.run({ op: 'echo', value: 1 }, { timeoutMs: 60_000, signal: controller.signal });
      await busy(p, 1);
      controller.abort();
      await expect(queued).rejects.toThrow(/abort/);
      expect(p.stats).toMatchObject({ queued: 0, busy: 1, replaced: 0 });
      gate.release();
      await running;
    });

    it("terminates a running task's worker and replaces it", async () => {
      const p = pool(1);
      const first = await p.run({ op: 'thread' }, { timeoutMs: 60_000 });
      const controller = new AbortController();
      const spinning = p.run({ op: 'spin' }, { timeoutMs: 600_000, signal: controller.signal });
      await busy(p, 1);
      controller.abort();
      await expect(spinning).rejects.toThrow(/abort/);
      expect(p.stats).toMatchObject({ busy: 0, replaced: 1 });
      expect(await p.run({ op: 'thread' }, { timeoutMs: 60_000 })).not.toBe(first);
    });

    it('refuses a task whose signal is already aborted', async () => {
      const p = pool(1);
      await expect(
        p.run({ op: 'echo', value: 1 }, { timeoutMs: 60_000, signal: AbortSignal.abort() }),
      ).rejects.toThrow(/abort/);
      expect(p.stats.workers).toBe(0);
    });
  });
});
