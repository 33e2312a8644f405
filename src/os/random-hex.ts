// Random bytes as hex from the kernel's /dev/urandom: what a short command needs for a key,
// without loading node:crypto (18 of Node's modules, a few milliseconds of tsrun's start-up).
import { closeSync, openSync, readSync } from 'node:fs';

/** `bytes` random bytes as 2 × `bytes` hex digits. */
export function randomHex(bytes: number): string {
  const buffer = Buffer.alloc(bytes);
  const fd = openSync('/dev/urandom', 'r');
  try {
    for (let got = 0; got < bytes; ) got += readSync(fd, buffer, got, bytes - got, null);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('hex');
}
