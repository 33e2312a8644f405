// A snapshot of /proc for the proctrack plugins: pid, parent, process group and state of every
// process, read from /proc/<pid>/stat (comm may hold spaces and ')', so fields are counted
// from the last ')').
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface ProcEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** One letter: R, S, D, Z (zombie), X (dead), T, ... */
  state: string;
}

export function parseStat(pid: number, text: string): ProcEntry | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const [state, ppid, pgrp] = text.slice(close + 2).split(' ');
  const entry = { pid, ppid: Number(ppid), pgid: Number(pgrp), state: state ?? '' };
  if (entry.state.length !== 1 || !Number.isInteger(entry.ppid) || !Number.isInteger(entry.pgid)) return null;
  return entry;
}

export async function readProc(pid: number | 'self'): Promise<ProcEntry | null> {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'latin1');
    return parseStat(pid === 'self' ? process.pid : pid, text);
  } catch {
    return null;
  }
}

/** readProc without the thread pool: a /proc file is the kernel's, read in microseconds. */
export function readProcSync(pid: number): ProcEntry | null {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return null;
  }
}

/**
 * Every process readable now (a process may vanish between readdir and read: it is left out).
 * One file at a time, synchronously: a /proc read never waits on a disk, while reading them all
 * at once through the thread pool opened a descriptor per process on the host at the same
 * time (thousands on a busy host, for each step signalled or waited for at that moment),
 * enough to run a step host out of descriptors (EMFILE) when many steps end together.
 */
export async function procTable(): Promise<ProcEntry[]> {
  const entries: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name)) continue;
    const entry = readProcSync(Number(name));
    if (entry !== null) entries.push(entry);
  }
  return entries;
}

/** Not a zombie (Slurm: "Defunct, don't try to kill"), which lingers under a PID 1 that does not reap. */
export function isLive(entry: ProcEntry): boolean {
  return entry.state !== 'Z' && entry.state !== 'X';
}

/** `VAR=value` strings of a process's initial environment, or [] when unreadable. */
export async function environOf(pid: number): Promise<string[]> {
  try {
    return (await readFile(`/proc/${pid}/environ`, 'latin1')).split('\0');
  } catch {
    return [];
  }
}
