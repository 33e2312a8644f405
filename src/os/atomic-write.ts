// The one way state files are replaced (slurmctld's state save): the new content goes to
// `FILE.new` and is fsynced; only then does it take FILE's place by a rename, so a reader (or
// a restart after a crash) finds the old whole file or the new whole one, never a part. A
// failed write (a full disk) leaves FILE as it was and no `.new` behind, and throws the error.
// writeFileAtomicAsync does the same through the thread pool, for a daemon whose loop must keep
// answering while a large file goes to the disk (an fsync may take a second on a busy disk).
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
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

/**
 * writeFileAtomic off the caller's loop: the same steps, in the same order, each awaited. The
 * content may come in pieces, each made as the one before is being written (a large file need
 * not be whole in memory, nor made in one go on the loop).
 */
export async function writeFileAtomicAsync(file: string, data: string | Uint8Array | Iterable<string>, options: AtomicWriteOptions = {}): Promise<void> {
  const fresh = `${file}.new`;
  const handle = await open(fresh, 'w', options.mode ?? 0o600);
  try {
    for (const piece of typeof data === 'string' || data instanceof Uint8Array ? [data] : data) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
      // A short write is not an error yet: the rest is written, or fails with the reason.
      for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
    }
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(fresh, { force: true });
    throw error;
  }
  await handle.close();
  if (options.keepOld === true) await rename(file, `${file}.old`).catch(ignoreMissing);
  await rename(fresh, file);
  if (options.syncDir === true) await syncDirAsync(path.dirname(file));
}

/** fsyncs a directory through the thread pool, so the renames in it survive a crash of the machine. */
export async function syncDirAsync(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some file systems cannot fsync a directory; the renames are still ordered.
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

export function syncDir(dir: string): void {
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
