import { Worker } from 'node:worker_threads';
import { WorkerCrashError, WorkerPool, WorkerTaskError, WorkerTimeoutError } from './worker-pool.js';

type Task =
  | { op: 'echo'; value: unknown }
  | { op: 'spin' }
  | { op: 'exit' }
  | { op: 'fail' }
  | { op: 'fatal' }
  | { op: 'thread' }
  | { op: 'sleep'; ms: number };

// A real worker thread speaking the pool's protocol; each op exercises one way a task can end.
const WORKER_SOURCE = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', ({ id, task }) => {
  switch (task.op) {
    case 'echo': return parentPort.postMessage({ id, ok: true, value: task.value });
    case 'thread': return parentPort.postMessage({ id, ok: true, value: threadId });
    case 'spin': for (;;) {}
    case 'exit': process.exit(3);
    case 'fail': return parentPort.postMessage({ id, ok: false, error: 'bad input' });
    case 'fatal': return parentPort.postMessage({ id, ok: false, error: 'runtime died', fatal: true });
    case 'sleep': return setTimeout(() => parentPort.postMessage({ id, ok: true, value: task.ms }), task.ms);
  }
});
`;

const pools: WorkerPool<Task, unknown>[] = [];
function pool(size = 1, source = WORKER_SOURCE): WorkerPool<Task, unknown> {
  const p = new WorkerPool<Task, unknown>({ size, createWorker: () => new Worker(source, { eval: true }) });
  pools.push(p);
  return p;
}

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('WorkerPool', () => {
  it('runs tasks in a worker and returns their results', async () => {
    const p = pool(2);
    await expect(p.run({ op: 'echo', value: { a: [1, 2] } }, 5000)).resolves.toEqual({ a: [1, 2] });
    const results = await Promise.all([1, 2, 3, 4, 5].map((v) => p.run({ op: 'echo', value: v }, 5000)));
    expect(results).toEqual([1, 2, 3, 4, 5]);
    expect(p.stats.workers).toBeLessThanOrEqual(2);
  });

  it('runs tasks in parallel up to its size', async () => {
    const p = pool(2);
    await Promise.all([p.run({ op: 'echo', value: 0 }, 5000), p.run({ op: 'echo', value: 0 }, 5000)]);
    const started = Date.now();
    await Promise.all([p.run({ op: 'sleep', ms: 400 }, 5000), p.run({ op: 'sleep', ms: 400 }, 5000)]);
    expect(Date.now() - started).toBeLessThan(750);
  });

  it('terminates a task that runs past its deadline, then replaces the worker', async () => {
    const p = pool(1);
    const first = await p.run({ op: 'thread' }, 5000);
    const started = Date.now();
    await expect(p.run({ op: 'spin' }, 300)).rejects.toBeInstanceOf(WorkerTimeoutError);
    expect(Date.now() - started).toBeLessThan(1500);
    const second = await p.run({ op: 'thread' }, 5000);
    expect(second).not.toBe(first);
    expect(p.stats.replaced).toBe(1);
  });

  it('does not charge the time a task waits in the queue against its deadline', async () => {
    const p = pool(1);
    const slow = p.run({ op: 'sleep', ms: 500 }, 5000);
    const queued = p.run({ op: 'echo', value: 'ok' }, 300);
    await expect(slow).resolves.toBe(500);
    await expect(queued).resolves.toBe('ok');
  });

  it('reports a worker that exits mid-task as a crash and replaces it', async () => {
    const p = pool(1);
    await expect(p.run({ op: 'exit' }, 5000)).rejects.toThrow(WorkerCrashError);
    await expect(p.run({ op: 'echo', value: 1 }, 5000)).resolves.toBe(1);
    expect(p.stats.replaced).toBe(1);
  });

  it('replaces a worker that reports a fatal error, never reusing it', async () => {
    const p = pool(1);
    const first = await p.run({ op: 'thread' }, 5000);
    await expect(p.run({ op: 'fatal' }, 5000)).rejects.toThrow(/runtime died/);
    expect(await p.run({ op: 'thread' }, 5000)).not.toBe(first);
  });

  it('keeps the worker after an ordinary task error', async () => {
    const p = pool(1);
    const first = await p.run({ op: 'thread' }, 5000);
    await expect(p.run({ op: 'fail' }, 5000)).rejects.toEqual(new WorkerTaskError('bad input'));
    expect(await p.run({ op: 'thread' }, 5000)).toBe(first);
    expect(p.stats.replaced).toBe(0);
  });

  it('fails queued tasks when workers cannot start', async () => {
    const p = pool(1, 'throw new Error("broken worker file")');
    await expect(p.run({ op: 'echo', value: 1 }, 5000)).rejects.toThrow(
      /could not start: .*broken worker file/,
    );
  });

  it('rejects queued and new tasks once closed', async () => {
    const p = pool(1);
    const running = expect(p.run({ op: 'sleep', ms: 2000 }, 5000)).rejects.toThrow(/closed/);
    const queued = expect(p.run({ op: 'echo', value: 1 }, 5000)).rejects.toThrow(/closed/);
    await new Promise((r) => setTimeout(r, 100));
    await p.close();
    await running;
    await queued;
    await expect(p.run({ op: 'echo', value: 1 }, 5000)).rejects.toThrow(/closed/);
  });
});
