// The store's write connection to SQLite, in a thread of its own (see ./sqlite-writer.ts): the
// transaction and its fsync block this thread instead of the server's event loop. Plain JS
// because Node 20 cannot start a .ts file in a worker.
//
// workerData: `{ path, port, answered }`. Requests come on `port`, in order:
// `{ op: 'commit', rows, rv }` writes (or removes) the rows and sets the counter to `rv` in one
// transaction; `{ op: 'close' }` checkpoints the WAL into the database file, closes it and ends
// this thread. Each is answered on `port`, in order, with `{}` or `{ error }`; after posting the
// answer the thread adds 1 to `answered[0]` and notifies it, so that the store can block on it
// when it must (closing).
import { workerData } from 'node:worker_threads';

/** @type {{ path: string; port: import('node:worker_threads').MessagePort; answered: Int32Array }} */
const { path, port, answered } = workerData;

/**
 * @typedef {{ resource: string; namespace: string; name: string; rv: number; data?: string }} Row
 * @typedef {{ op: 'commit'; rows: Row[]; rv: number } | { op: 'close' }} Request
 */

/** @type {(request: Request) => void} */
let run;
try {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path);
  // Per connection: a transaction is on disk (fsync'd) when it returns. The store set up the
  // schema and WAL mode (kept by the file) when it loaded it.
  db.pragma('synchronous = FULL');
  const put = db.prepare(
    'INSERT OR REPLACE INTO objects (resource, namespace, name, rv, data) VALUES (?, ?, ?, ?, ?)',
  );
  const remove = db.prepare('DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ?');
  const counter = db.prepare("UPDATE meta SET value = ? WHERE key = 'resourceVersion'");
  const commit = db.transaction((/** @type {Row[]} */ rows, /** @type {number} */ rv) => {
    for (const row of rows) {
      if (row.data !== undefined) put.run(row.resource, row.namespace, row.name, row.rv, row.data);
      else remove.run(row.resource, row.namespace, row.name);
    }
    counter.run(rv);
  });
  run = (request) => {
    if (request.op === 'commit') return void commit(request.rows, request.rv);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  };
} catch (err) {
  const failed = err;
  run = () => {
    throw failed;
  };
}

port.on('message', (/** @type {Request} */ request) => {
  /** @type {{ error?: string }} */
  let answer = {};
  try {
    run(request);
  } catch (err) {
    answer = { error: String(err) };
  }
  port.postMessage(answer);
  Atomics.add(answered, 0, 1);
  Atomics.notify(answered, 0);
  if (request.op === 'close') port.close();
});
