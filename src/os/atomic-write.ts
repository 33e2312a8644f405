// The one way state files are replaced (slurmctld's state save): the new content goes to
// `FILE.new` and is fsynced; only then does it take FILE's place by a rename, so a reader (or
// a restart after a crash) finds the old whole file or the new whole one, never a part. A
// failed write (a full disk) leaves FILE as it was and no `.new` behind, and throws the error.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's mode (0o600 unless said). */
  mode?: number;
  /** Keep the replaced file as `FILE.old`, to fall back to when the new one is found damaged. */
  keepOld?: boolean;
  /** fsync the directory too, so the renames themselves survive a crash of the machine. */
  syncDir?: boolean;
}

export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const fresh = `${file}.new`;
  const fd = openSync(fresh, 'w', options.mode ?? 0o600);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(fresh, { force: true });
    throw error;
  }
  closeSync(fd);
  if (options.keepOld === true && existsSync(file)) renameSync(file, `${file}.old`);
  renameSync(fresh, file);
  if (options.syncDir === true) syncDir(path.dirname(file));
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a directory; the renames are still ordered.
  }
}
