// The process that writes a broadcast file on a node (see bcast-node.ts): started inside the
// job's container, it reads the file's bytes on stdin and writes them to DEST as slurmd's
// file_bcast does: O_EXCL unless forced, the source's mode, and with -p its times.
// Usage: bcast-writer DEST MODE(octal) FORCE(0|1) [ATIME MTIME]. A failure prints the errno's
// name (EEXIST, ENOENT, ...) on the last line of stderr and exits 1.
import { chmodSync, closeSync, openSync, utimesSync, writeSync } from 'node:fs';

const [dest = '', modeText = '644', force = '0', atime, mtime] = process.argv.slice(2);
const chunks: Buffer[] = [];
process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
process.stdin.on('end', () => {
  try {
    const mode = Number.parseInt(modeText, 8);
    const fd = openSync(dest, force === '1' ? 'w' : 'wx', mode);
    try {
      const data = Buffer.concat(chunks);
      for (let done = 0; done < data.length; ) done += writeSync(fd, data, done);
    } finally {
      closeSync(fd);
    }
    if (atime !== undefined && mtime !== undefined) {
      chmodSync(dest, mode);
      utimesSync(dest, Number(atime), Number(mtime));
    }
  } catch (error) {
    process.stderr.write(`${(error as NodeJS.ErrnoException).code ?? 'EIO'}\n`);
    process.exitCode = 1;
  }
});
