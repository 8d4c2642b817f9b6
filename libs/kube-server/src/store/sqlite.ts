import Database from 'better-sqlite3';
import { type StoredObject } from '#kube-core';

export interface LoadedRow {
  resource: string;
  namespace: string;
  name: string;
  rv: number;
  object: StoredObject;
}

/** One object to write, or to remove (`data` undefined). */
export interface Row {
  resource: string;
  namespace: string;
  name: string;
  rv: number;
  data?: string;
}

/**
 * The durable copy: one row per object plus the global resourceVersion counter.
 * WAL + synchronous=FULL: a committed batch is on disk (fsync'd) when
 * `commit` returns, so a write the server acknowledged after it survives kill -9
 * (and a power cut).
 */
export class SqliteStore {
  private readonly db: Database.Database;
  private readonly putStmt: Database.Statement;
  private readonly deleteStmt: Database.Statement;
  private readonly counterStmt: Database.Statement;

  constructor(path: string) {
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS objects (
        resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
        rv INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (resource, namespace, name)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT OR IGNORE INTO meta (key, value) VALUES ('resourceVersion', 0);
    `);
    this.putStmt = this.db.prepare(
      'INSERT OR REPLACE INTO objects (resource, namespace, name, rv, data) VALUES (?, ?, ?, ?, ?)',
    );
    this.deleteStmt = this.db.prepare(
      'DELETE FROM objects WHERE resource = ? AND namespace = ? AND name = ?',
    );
    this.counterStmt = this.db.prepare("UPDATE meta SET value = ? WHERE key = 'resourceVersion'");
  }

  resourceVersion(): number {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'resourceVersion'").get() as {
      value: number;
    };
    return row.value;
  }

  loadAll(): LoadedRow[] {
    const rows = this.db.prepare('SELECT resource, namespace, name, rv, data FROM objects').all() as Array<{
      resource: string;
      namespace: string;
      name: string;
      rv: number;
      data: string;
    }>;
    return rows.map((row) => ({ ...row, object: JSON.parse(row.data) as StoredObject }));
  }

  /** Writes (or removes) the rows and sets the counter to `rv`, in one transaction: one fsync for all of them. */
  commit(rows: Iterable<Row>, rv: number): void {
    this.db.transaction(() => {
      for (const row of rows) {
        if (row.data !== undefined) this.putStmt.run(row.resource, row.namespace, row.name, row.rv, row.data);
        else this.deleteStmt.run(row.resource, row.namespace, row.name);
      }
      this.counterStmt.run(rv);
    })();
  }

  close(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }
}
