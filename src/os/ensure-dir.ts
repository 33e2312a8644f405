// mkdir -p for state directories. Node's recursive mkdirSync never returns for a path under
// /proc (it retries ENOENT forever), so the parents are made one by one here instead.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export function ensureDir(dir: string, mode = 0o700): void {
  try {
    mkdirSync(dir, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    const parent = path.dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw error;
    ensureDir(parent, mode);
    try {
      mkdirSync(dir, { mode });
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code !== 'EEXIST') throw again;
    }
  }
}
