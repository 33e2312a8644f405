// A daemon's log file, opened for a daemon a test starts: its stdout and stderr are the file
// itself (the fd), so a line is in the file once the daemon has written it. execa's
// `{ file }` relays the output through the test's own process, so a line the daemon had
// written could still be on its way when the test read the log, right after the answer that
// followed it (seen under load: "returned to service", "replayed credential" missing).
import { closeSync, openSync } from 'node:fs';

/** Opens `file` for appending; `close` once the daemon has been started (it keeps its own copy). */
export function openLog(file: string): { fd: number; close(): void } {
  const fd = openSync(file, 'a');
  return { fd, close: () => closeSync(fd) };
}
