// Where a daemon's log lines go: fd 2, which is tsctld.log in the state directory when it
// runs in the background and the terminal with -D. A line that cannot be written (the disk
// is full) must not stop the daemon: Node's process.stderr would emit an error nobody
// handles and exit. So lines are written to the fd directly; one that fails is dropped and
// counted, and the count is said, once, as soon as a line can be written again.
import { writeSync } from 'node:fs';

export function resilientSink(prog: string, fd = 2): (line: string) => void {
  let dropped = 0;
  let why = '';
  const write = (text: string): boolean => {
    try {
      writeSync(fd, text);
      return true;
    } catch (error) {
      why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      return false;
    }
  };
  // Whatever else writes to stderr (a Node warning) must not bring the daemon down either.
  process.stderr.on('error', () => {});
  process.stdout.on('error', () => {});
  return (line) => {
    if (dropped > 0 && write(`${prog}: warning: ${dropped} log line${dropped === 1 ? ' was' : 's were'} lost (${why})\n`)) dropped = 0;
    if (dropped > 0 || !write(line)) dropped++;
  };
}
