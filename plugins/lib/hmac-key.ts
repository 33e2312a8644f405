// Reading auth/hmac's shared key with munged's checks: a regular file, at least 32 bytes
// (munge's minimum key length), and no access for group or others — a key others can read
// lets them sign as anyone. The checks run on the opened file (fstat), not on the name.
import { open } from 'node:fs/promises';

/** munge's MUNGE_MINIMUM_KEY_LEN: shorter keys are refused. */
export const MIN_KEY_BYTES = 32;

export type KeyResult = { ok: true; key: Buffer } | { ok: false; reason: string };

/** The key in `file`, or why it cannot be used (a sentence for the init error). */
export async function readKeyFile(file: string, strerror: (errnum: number) => string): Promise<KeyResult> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    return { ok: false, reason: `cannot open key file ${file}: ${systemText(error, strerror)}` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { ok: false, reason: `key file ${file} is not a regular file` };
    const loose = info.mode & 0o077;
    if (loose !== 0) {
      const mode = (info.mode & 0o7777).toString(8).padStart(4, '0');
      return { ok: false, reason: `key file ${file} is ${accessText(loose)} (mode ${mode}); chmod 600 it` };
    }
    const key = await handle.readFile();
    if (key.length < MIN_KEY_BYTES) {
      return {
        ok: false,
        reason: `key file ${file} is too short (${key.length} bytes, at least ${MIN_KEY_BYTES} needed); make one with head -c 32 /dev/urandom`,
      };
    }
    return { ok: true, key };
  } catch (error) {
    return { ok: false, reason: `cannot read key file ${file}: ${systemText(error, strerror)}` };
  } finally {
    await handle.close();
  }
}

function accessText(bits: number): string {
  if (bits & 0o044) return 'readable by others';
  if (bits & 0o022) return 'writable by others';
  return 'accessible by others';
}

// Node's errors carry the errno negated (libuv); Slurm's strerror gives the C library's text.
function systemText(error: unknown, strerror: (errnum: number) => string): string {
  const errno = (error as NodeJS.ErrnoException).errno;
  if (typeof errno === 'number' && errno !== 0) return strerror(Math.abs(errno));
  return error instanceof Error ? error.message : String(error);
}
