// Where the accounting store lives: one SQLite file in the controller's state directory
// (with its -wal and -shm files beside it while in use).
import path from 'node:path';

export const STORE_FILE = 'accounting.db';

export function accountingStorePath(stateDir: string): string {
  return path.join(stateDir, STORE_FILE);
}
