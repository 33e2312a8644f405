// The proctrack plugin a cluster file that names none gets: the strongest that works without
// set-up (issue 16). proctrack/cgroup holds every process a task starts (setsid and double
// forks included) where a cgroup v2 hierarchy is writable (root, or a delegated tree), else
// proctrack/linuxproc, which finds them through /proc and an environment mark. The probe is
// the plugin's own test without its side effect (it makes no directory), so a command that
// only reads the configuration changes nothing on the host; if the plugin still cannot load,
// the step daemon falls back to linuxproc (see PluginChoices.proctrackFallback).
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import type { PluginChoices } from './types.js';

export const CGROUP_V2_ROOTS = ['/sys/fs/cgroup', '/sys/fs/cgroup/unified'];

let chosen: 'proctrack/cgroup' | 'proctrack/linuxproc' | undefined;

export function defaultProctrack(): 'proctrack/cgroup' | 'proctrack/linuxproc' {
  chosen ??= CGROUP_V2_ROOTS.some(writableV2) ? 'proctrack/cgroup' : 'proctrack/linuxproc';
  return chosen;
}

/** The cluster's proctrack plugin, else the host's strongest, with linuxproc to fall back on. */
export function proctrackChoice(given: string | undefined): Pick<PluginChoices, 'proctrack' | 'proctrackFallback'> {
  if (given !== undefined) return { proctrack: given };
  const proctrack = defaultProctrack();
  return proctrack === 'proctrack/cgroup' ? { proctrack, proctrackFallback: 'proctrack/linuxproc' } : { proctrack };
}

// cgroup.controllers marks a v2 hierarchy; ours is its `tslurm` directory, or the root itself
// where we would make it.
function writableV2(dir: string): boolean {
  if (!existsSync(path.join(dir, 'cgroup.controllers')) || !existsSync(path.join(dir, 'cgroup.procs'))) return false;
  const ours = path.join(dir, 'tslurm');
  try {
    accessSync(existsSync(ours) ? ours : dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
