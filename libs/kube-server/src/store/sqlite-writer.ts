import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Row } from './sqlite.js';

/** How a request ended: undefined when done, else what failed. */
export type Answer = (error?: string) => void;

const WORKER_FILE = new URL('./sqlite-writer.worker.mjs', import.meta.url);

/**
 * The store's writes to SQLite, committed by a worker thread (./sqlite-writer.worker.mjs) that
 * owns the write connection: a commit's transaction and fsync happen there while the event loop
 * goes on serving. Requests are answered in the order they were sent, by calling their `Answer`
 * from the event loop, or at once by `drain()`/`close()`, which block until the worker answered.
 *
 * The worker keeps no process alive by itself; the channel does while an answer is awaited.
 */
export class SqliteWriter {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  /** `answered[0]`: how many requests the worker answered (it notifies on every change). */
  private readonly answered = new Int32Array(new SharedArrayBuffer(4));
  private readonly waiting: Answer[] = [];
  /** Set when the worker died or was closed: every request fails with it. */
  private dead?: string;

  constructor(path: string) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_FILE, {
      workerData: { path, port: port2, answered: this.answered },
      transferList: [port2],
    });
    this.worker.unref();
    this.worker.on('error', (err) => this.died(`the store's writer thread failed: ${String(err)}`));
    this.worker.on('exit', (code) => this.died(`the store's writer thread exited (code ${code})`));
    this.port.on('message', (answer: { error?: string }) => this.answer(answer));
    this.port.unref();
  }

  /** Writes (or removes) the rows and sets the counter to `rv`, in one transaction: one fsync for all of them. */
  commit(rows: Row[], rv: number, done: Answer): void {
    this.send({ op: 'commit', rows, rv }, done);
  }

  /** Blocks until every request sent so far is answered (their `Answer`s are called first). */
  drain(): void {
    while (this.waiting.length && !this.dead) {
      const seen = Atomics.load(this.answered, 0);
      const received = receiveMessageOnPort(this.port);
      if (received) this.answer(received.message as { error?: string });
      else Atomics.wait(this.answered, 0, seen);
    }
  }

  /** Answers what was sent, then checkpoints and closes the database and ends the worker (blocking). */
  close(): void {
    if (this.dead) return;
    let failed: string | undefined;
    this.send({ op: 'close' }, (error) => (failed = error));
    this.drain();
    this.died("the store's database is closed");
    this.port.close();
    void this.worker.terminate();
    if (failed) throw new Error(`the store could not close its database: ${failed}`);
  }

  private send(request: object, done: Answer): void {
    if (this.dead) return done(this.dead);
    if (!this.waiting.length) this.port.ref();
    this.waiting.push(done);
    this.port.postMessage(request);
  }

  private answer(answer: { error?: string }): void {
    const done = this.waiting.shift();
    if (!this.waiting.length) this.port.unref();
    done?.(answer.error);
  }

  private died(why: string): void {
    if (this.dead) return;
    this.dead = why;
    this.port.unref();
    for (const done of this.waiting.splice(0)) done(why);
  }
}
