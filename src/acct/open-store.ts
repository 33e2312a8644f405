// Opening the store. better-sqlite3 is a native module: it is loaded here, on first use, so
// only the controller's writer and tsacct pay for it, never another command's start-up.
// The controller opens it for writing in WAL mode (readers go on while it writes; a kill
// mid-write loses at most the transaction under way); tsacct opens it read-only.
import { chmodSync, closeSync, existsSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Database } from 'better-sqlite3';
import { migrate, type Migration } from './migrations.js';

export type StoreDb = Database;

// Through require: the client commands run as CommonJS bundles in a vm script (bin/command-
// loader.cjs), where a dynamic import() of a package has no loader to go to.
async function loadDriver(): Promise<typeof import('better-sqlite3')> {
  return createRequire(import.meta.url)('better-sqlite3') as typeof import('better-sqlite3');
}

/** The controller's connection: created when missing, brought to the current schema. */
export async function openStoreForWriting(file: string): Promise<{ db: StoreDb; migrated: Migration[] }> {
  const Driver = await loadDriver();
  ownerOnly(file);
  const db = new Driver(file);
  try {
    db.pragma('journal_mode = WAL');
    // With WAL, NORMAL syncs at checkpoints only: a power loss may drop the latest records,
    // which the controller writes again from its journal at start (reconcile).
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    return { db, migrated: migrate(db) };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * The store is the controller's, 0600 like everything it creates, whatever the umask: made so
 * before SQLite opens it, which gives its -wal and -shm files the database file's mode. A store
 * an older tslurm left readable is closed down too.
 */
function ownerOnly(file: string): void {
  closeSync(openSync(file, 'a', 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(name)) chmodSync(name, 0o600);
}

/** A reader's connection; undefined when no store exists yet (no job has been recorded). */
export async function openStoreForReading(file: string): Promise<StoreDb | undefined> {
  const Driver = await loadDriver();
  try {
    const db = new Driver(file, { readonly: true, fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CANTOPEN') return undefined;
    throw error;
  }
}
