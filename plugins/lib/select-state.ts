// The built-in select plugins' saved state (select_p_state_save/restore): the allocations of
// running jobs, in a file that starts with a magic number and a version, and names the nodes
// it was written for — a foreign file, a newer format or a changed node table is refused
// with a reason rather than misread. Written through the thread pool: the controller saves it
// with each snapshot, and an fsync on its loop would hold up every answer meanwhile.
import { readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Allocation } from './allocation.js';

/** "TSSEL" in ASCII, as Slurm's state files start with a magic number. */
export const SELECT_STATE_MAGIC = 0x5453_5345_4c;
export const SELECT_STATE_VERSION = 1;
const FILE = 'select_state';

export interface SavedRunning {
  job: number;
  /** Unix seconds, or null for no time limit. */
  end: number | null;
  alloc: Allocation;
}

/** Takes the state at once (the caller may change `running` after), then writes it: `.new`, fsync, rename. */
export async function writeSelectState(dir: string, nodeNames: readonly string[], running: readonly SavedRunning[]): Promise<void> {
  const file = path.join(dir, FILE);
  const text = JSON.stringify({ magic: SELECT_STATE_MAGIC, version: SELECT_STATE_VERSION, nodes: nodeNames, running });
  const handle = await open(`${file}.new`, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(`${file}.new`, file);
}

export function readSelectState(dir: string, nodeNames: readonly string[]): { running: SavedRunning[]; problem?: string } {
  const file = path.join(dir, FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { running: [] }; // first start
  }
  let state: { magic?: unknown; version?: unknown; nodes?: unknown; running?: SavedRunning[] };
  try {
    state = JSON.parse(text) as typeof state;
  } catch {
    return { running: [], problem: `${file} is damaged` };
  }
  if (state.magic !== SELECT_STATE_MAGIC) return { running: [], problem: `${file} is not a select state file (bad magic number)` };
  if (state.version !== SELECT_STATE_VERSION) return { running: [], problem: `${file} has version ${String(state.version)}, this plugin reads ${SELECT_STATE_VERSION}` };
  if (JSON.stringify(state.nodes) !== JSON.stringify(nodeNames)) return { running: [], problem: `${file} was saved for other nodes` };
  return { running: state.running ?? [] };
}
