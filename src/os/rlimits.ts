// The soft resource limits srun and sbatch propagate to the tasks (--propagate, Slurm's
// PropagateResourceLimits): this process's own, read from /proc/self/limits (Node has no
// getrlimit), by Slurm's names; NOFILE from the parent's (see below). Values are as the kernel counts them (bytes, seconds, files);
// "unlimited" stays a word, which the task exec helper understands.
import { readFileSync } from 'node:fs';

const PROC_NAMES: Record<string, string> = {
  'Max cpu time': 'CPU',
  'Max file size': 'FSIZE',
  'Max data size': 'DATA',
  'Max stack size': 'STACK',
  'Max core file size': 'CORE',
  'Max resident set': 'RSS',
  'Max processes': 'NPROC',
  'Max open files': 'NOFILE',
  'Max locked memory': 'MEMLOCK',
  'Max address space': 'AS',
};

/** The soft limits named in `names` (CORE, NOFILE, ...), as `NAME=value`; [] where /proc cannot tell. */
export function softLimits(names: readonly string[]): string[] {
  const soft = readSoftLimits('/proc/self/limits');
  // Node raises its own NOFILE soft limit to the hard one as it starts; the caller's is still
  // its parent's (the shell that ran the command: `#!/usr/bin/env node` execs node in place).
  const nofile = readSoftLimits(`/proc/${process.ppid}/limits`).get('NOFILE');
  if (nofile !== undefined) soft.set('NOFILE', nofile);
  return names.filter((name) => soft.has(name)).map((name) => `${name}=${soft.get(name)}`);
}

function readSoftLimits(file: string): Map<string, string> {
  const soft = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return soft;
  }
  for (const line of text.split('\n')) {
    const label = Object.keys(PROC_NAMES).find((l) => line.startsWith(`${l} `));
    if (label === undefined) continue;
    const value = line.slice(label.length).trim().split(/\s+/)[0];
    if (value !== undefined && /^(\d+|unlimited)$/.test(value)) soft.set(PROC_NAMES[label]!, value);
  }
  return soft;
}
