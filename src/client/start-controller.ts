// Starting a tsctld on demand (DESIGN.md §2): detached, logging to tsctld.log in the state
// directory, with a pipe on fd 3 on which it says `ready`, or why it could not start — so a
// refusal (an untrusted state directory, a full disk, a bad setting) reaches the command as
// its one error line at once, instead of after the wait for a socket that never comes. Losing
// the race to another command's controller is said as `raced`: that one is used.
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../core/errors.js';
import { notWritable, prepareStateDir } from '../config/state-dir.js';
import { REPORT_FD, ON_DEMAND_ENV, REPORT_FD_ENV } from '../os/start-report.js';
import { startChild } from '../os/spawn.js';

/** What the started controller has said so far. */
export interface StartWatch {
  /** `ready`, `raced`, or a refusal; undefined while it has said nothing. */
  outcome(): { kind: 'ready' | 'raced' } | { kind: 'failed'; error: UserError } | undefined;
  /** Settles when the controller has said its line or exited: the command connects then, without a poll's delay. */
  said: Promise<void>;
}

export interface StartRequest {
  stateDir: string;
  clusterFile: string | undefined;
}

export function startControllerOnDemand(request: StartRequest): StartWatch {
  const idleExit = idleExitSetting();
  prepareStateDir(request.stateDir);
  const logFile = path.join(request.stateDir, 'tsctld.log');
  let log: number;
  try {
    log = openSync(logFile, 'a', 0o600);
  } catch (error) {
    throw notWritable(request.stateDir, error);
  }
  const bin = fileURLToPath(new URL('../../bin/tsctld.js', import.meta.url));
  const args = [bin, '-D', '--idle-exit', idleExit];
  if (request.clusterFile !== undefined) args.push('--cluster', request.clusterFile);
  let said = '';
  let exitCode: number | null = null;
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  try {
    const { child, ended } = startChild([process.execPath, ...args], {
      detached: true,
      stdio: ['ignore', log, log, 'pipe'],
      env: { ...process.env, TSLURM_STATE_DIR: request.stateDir, [REPORT_FD_ENV]: String(REPORT_FD), [ON_DEMAND_ENV]: '1' },
    });
    void ended.then((end) => {
      exitCode = end.kind === 'exited' ? end.code : 1;
      settle();
    });
    const report = child.stdio[REPORT_FD] as NodeJS.ReadableStream & { destroy(): void; unref?(): void };
    report.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      if (said.includes('\n')) settle();
    });
    report.on('error', () => {});
    // Neither the pipe nor the child may keep this command alive once it has its answer.
    (report as { unref?: () => void }).unref?.();
    child.unref();
  } finally {
    closeSync(log);
  }
  return {
    said: settled,
    outcome: () => {
      const line = said.split('\n')[0] ?? '';
      if (!said.includes('\n') && exitCode === null) return undefined;
      if (line === 'ready') return { kind: 'ready' };
      if (line === 'raced' || (line === '' && exitCode === 0)) return { kind: 'raced' };
      if (line.startsWith('error: ')) return { kind: 'failed', error: new UserError(line.slice('error: '.length)) };
      if (exitCode !== null && line === '') {
        return { kind: 'failed', error: new UserError(`tsctld exited with status ${exitCode} before it served (see ${logFile})`) };
      }
      return undefined;
    },
  };
}

// TSLURM_CTLD_IDLE_EXIT: how long a controller started on demand stays with nothing to do.
function idleExitSetting(): string {
  const text = process.env.TSLURM_CTLD_IDLE_EXIT ?? '300';
  const seconds = Number(text);
  if (text.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new UserError(`invalid TSLURM_CTLD_IDLE_EXIT value: ${text} (seconds to stay with nothing to do, 0: never)`);
  }
  return text.trim();
}
