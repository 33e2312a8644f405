// Where a daemon's private sockets and registries go: a runtime directory rather than /tmp,
// which a process started inside a job (job_container/tmpfs) would see privately, and where
// they would show in everyone's /tmp.
import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** $XDG_RUNTIME_DIR, else /run for root, when writable; else the temporary directory. */
export function runtimeBase(): string {
  for (const dir of [process.env.XDG_RUNTIME_DIR, process.getuid?.() === 0 ? '/run' : undefined]) {
    if (!dir || !path.isAbsolute(dir)) continue;
    try {
      accessSync(dir, constants.W_OK | constants.X_OK);
      return dir;
    } catch {
      // not there or not ours: the next one
    }
  }
  return tmpdir();
}
