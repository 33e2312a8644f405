// The step's secret that nodes show tsrun and each other before anything they send is
// believed: random bytes from the kernel's /dev/urandom, read directly, since loading
// node:crypto for 16 bytes costs tsrun a few milliseconds of its way to the launch.
import { closeSync, openSync, readSync } from 'node:fs';

const KEY_BYTES = 16;

/** A fresh key: 32 hex digits. */
export function newStepKey(): string {
  const buffer = Buffer.alloc(KEY_BYTES);
  const fd = openSync('/dev/urandom', 'r');
  try {
    for (let got = 0; got < KEY_BYTES; ) got += readSync(fd, buffer, got, KEY_BYTES - got, null);
  } finally {
    closeSync(fd);
  }
  return buffer.toString('hex');
}
