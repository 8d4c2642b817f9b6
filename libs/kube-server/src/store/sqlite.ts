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
 * The durable copy: one row per object plus the global resourceVersion counter, in WAL mode.
 * Opens the database (creating its tables), reads everything and closes it again: the writes
 * go through SqliteWriter's connection, in a worker thread.
 */
export function loadSqlite(path: string): { resourceVersion: number; rows: LoadedRow[] } {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.exec(`
      CREATE TABLE IF NOT EXISTS objects (
        resource TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL,
        rv INTEGER NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (resource, namespace, name)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT OR IGNORE INTO meta (key, value) VALUES ('resourceVersion', 0);
    `);
    const counter = db.prepare("SELECT value FROM meta WHERE key = 'resourceVersion'").get() as {
      value: number;
    };
    const rows = db.prepare('SELECT resource, namespace, name, rv, data FROM objects').all() as Array<{
      resource: string;
      namespace: string;
      name: string;
      rv: number;
      data: string;
    }>;
    return {
      resourceVersion: counter.value,
      rows: rows.map((row) => ({ ...row, object: JSON.parse(row.data) as StoredObject })),
    };
  } finally {
    db.close();
  }
}
