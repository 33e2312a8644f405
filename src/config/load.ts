// Which cluster a command runs against: --cluster FILE, else TSLURM_CONF, else SLURM_CONF (a
// slurm.conf, as Slurm's commands read it), else the built-in default (DESIGN.md §6). A file
// is read as a slurm.conf when its name ends in `.conf`, or when (neither `.yaml` nor `.yml`)
// its first line of content is a `Key=Value`; otherwise it is a cluster YAML.
// Read synchronously: nothing else runs while a command reads its cluster, and node:fs/promises
// (with the readline and stream modules it loads) is then no part of a command's start-up.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { slurm_strerror } from '../core/errno.js';
import { defaultCluster } from './defaults.js';
import type { ClusterConfig } from './types.js';


export interface LoadOptions {
  /** --cluster FILE. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Relative file names are resolved against this; default process.cwd(). */
  cwd?: string;
}

/** Loads the cluster the command should use. Throws UserError / UserErrorList. */
export async function loadCluster(opts: LoadOptions = {}): Promise<ClusterConfig> {
  const env = opts.env ?? process.env;
  const slurmConf = env.SLURM_CONF || undefined;
  const file = opts.file ?? (env.TSLURM_CONF || undefined) ?? slurmConf;
  if (file === undefined) return defaultCluster();
  const cwd = opts.cwd ?? process.cwd();
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new UserError(`${file}: cannot read cluster file: ${osReason(error)}`, { cause: error });
  }
  // SLURM_CONF names a slurm.conf whatever its name (Slurm's own commands read nothing else),
  // except a cluster YAML: tslurm's tasks, batch scripts and salloc commands get SLURM_CONF as
  // Slurm's do, naming the file their cluster came from, which may be a YAML.
  const fromSlurmConf = opts.file === undefined && !env.TSLURM_CONF && !/\.ya?ml$/i.test(file);
  if (fromSlurmConf || isSlurmConf(file, text)) {
    const { parseSlurmConf } = await import('./slurm-conf/load.js');
    return parseSlurmConf(text, resolve(cwd, file));
  }
  // The YAML parser loads only when a file is given (the built-in default needs none).
  const { parseClusterYaml: parse } = await import('./parse.js');
  return parse(text, file, { cwd });
}

/**
 * The cluster file a running daemon was started with, read again the way it was read then (a
 * slurm.conf, or a cluster YAML): `tscontrol reconfigure`. Throws UserError / UserErrorList
 * naming the file, line and column of what is wrong.
 */
export async function reloadCluster(config: ClusterConfig): Promise<ClusterConfig> {
  let text: string;
  try {
    text = readFileSync(config.source, 'utf8');
  } catch (error) {
    throw new UserError(`${config.source}: cannot read cluster file: ${osReason(error)}`, { cause: error });
  }
  if (config.slurmConf !== undefined) {
    const { parseSlurmConf } = await import('./slurm-conf/load.js');
    return parseSlurmConf(text, config.source);
  }
  const { parseClusterYaml: parse } = await import('./parse.js');
  return parse(text, config.source);
}

/** Whether a cluster file is a slurm.conf rather than a cluster YAML (see the top). */
export function isSlurmConf(file: string, text: string): boolean {
  if (/\.conf$/i.test(file)) return true;
  if (/\.ya?ml$/i.test(file)) return false;
  const first = text.split('\n').map((line) => line.replace(/#.*/, '').trim()).find((line) => line !== '');
  return first !== undefined && (/^[A-Za-z0-9_.]+\s*[-*+/]?=/.test(first) || /^include\s/i.test(first));
}

// "No such file or directory", as the C library words it (Node's own text is lower case
// and carries the syscall and path).
function osReason(error: unknown): string {
  const errno = (error as NodeJS.ErrnoException).errno;
  if (typeof errno === 'number') return slurm_strerror(Math.abs(errno));
  return error instanceof Error ? error.message : String(error);
}
