// Which cluster a command runs against: --cluster FILE, else TSLURM_CONF, else the built-in
// default (DESIGN.md §6).
import { readFile } from 'node:fs/promises';
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
  const file = opts.file ?? (env.TSLURM_CONF || undefined);
  if (file === undefined) return defaultCluster();
  const cwd = opts.cwd ?? process.cwd();
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new UserError(`${file}: cannot read cluster file: ${osReason(error)}`, { cause: error });
  }
  // The YAML parser loads only when a file is given (the built-in default needs none).
  const { parseClusterYaml: parse } = await import('./parse.js');
  return parse(text, file, { cwd });
}

// "No such file or directory", as the C library words it (Node's own text is lower case
// and carries the syscall and path).
function osReason(error: unknown): string {
  const errno = (error as NodeJS.ErrnoException).errno;
  if (typeof errno === 'number') return slurm_strerror(Math.abs(errno));
  return error instanceof Error ? error.message : String(error);
}
