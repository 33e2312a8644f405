// Whether tsrun's stdin can ever carry data. When it is /dev/null (a script in CI, a bench
// run), tasks get no stdin pipe at all: they read end-of-file either way, and a pipe per task
// costs a socket pair and two stream objects each.
import { fstatSync, statSync } from 'node:fs';

export function stdinIsNull(): boolean {
  try {
    const fd0 = fstatSync(0);
    if (!fd0.isCharacterDevice()) return false;
    return fd0.rdev === statSync('/dev/null').rdev;
  } catch {
    return false; // stdin closed: treated as data-less only by the task's own EOF
  }
}
