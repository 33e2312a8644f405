// Where the controller keeps its state (DESIGN.md §6): TSLURM_STATE_DIR, else the cluster
// file's control.state_dir, else $XDG_STATE_HOME/tslurm/<cluster> (~/.local/state when
// XDG_STATE_HOME is unset), so jobs submitted by one command are seen by the next.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { accessSync, constants, statSync } from 'node:fs';
import { ensureDir } from '../os/ensure-dir.js';
import { UserError } from '../core/errors.js';
import { checkTrustedDir } from './trusted-path.js';
import type { ClusterConfig } from './types.js';

export function resolveStateDir(config: ClusterConfig, env: NodeJS.ProcessEnv = process.env): string {
  if (env.TSLURM_STATE_DIR) return resolve(env.TSLURM_STATE_DIR);
  if (config.control.stateDir) return config.control.stateDir;
  // The XDG spec says a relative XDG_STATE_HOME is invalid and must be ignored.
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'tslurm', config.clusterName);
}

/**
 * Makes the state directory when missing (0700) and refuses one this user cannot trust or
 * write, with one line that says why (checkTrustedDir) — before anything in it is read.
 */
export function prepareStateDir(stateDir: string): void {
  try {
    ensureDir(stateDir);
  } catch (error) {
    throw notWritable(stateDir, error);
  }
  const info = statSync(stateDir);
  if (!info.isDirectory()) throw new UserError(`state directory ${stateDir} is not a directory`);
  checkTrustedDir(stateDir);
  try {
    accessSync(stateDir, constants.W_OK);
  } catch (error) {
    throw notWritable(stateDir, error);
  }
}

export function notWritable(stateDir: string, error: unknown): UserError {
  return new UserError(`state directory ${stateDir} is not writable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
}
