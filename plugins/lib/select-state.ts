// The built-in select plugins' saved state (select_p_state_save/restore): the allocations of
// running jobs, in a file that starts with a magic number and a version, and names the nodes
// it was written for — a foreign file, a newer format or a changed node table is refused
// with a reason rather than misread.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
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

export function writeSelectState(dir: string, nodeNames: readonly string[], running: readonly SavedRunning[]): void {
  const file = path.join(dir, FILE);
  const text = JSON.stringify({ magic: SELECT_STATE_MAGIC, version: SELECT_STATE_VERSION, nodes: nodeNames, running });
  const fd = openSync(`${file}.new`, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(`${file}.new`, file);
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
