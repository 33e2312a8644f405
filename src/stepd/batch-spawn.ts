// Starting a batch step daemon (dist/stepd/batch.js) on a job directory, detached so it
// outlives whoever started it — the controller for emulated nodes, a tsstepd for its node —
// and checking later whether a recorded pid is still one.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDir } from '../os/ensure-dir.js';
import type { BatchResult, BatchSpec, KillRequest } from './batch-spec.js';
import type { jobDirFiles } from './batch-spec.js';

export type JobFiles = ReturnType<typeof jobDirFiles>;

/** Writes the script and spec into the job's directory and starts the daemon; returns its pid. */
export function spawnBatchStepd(files: JobFiles, spec: BatchSpec, scriptText: string, onExit: (pid: number) => void): number {
  ensureDir(files.dir);
  writeFileSync(files.script, scriptText, { mode: 0o700 });
  if (spec.runAs) {
    // The script runs as the job's user, who must reach it: the script is theirs (0700), the
    // directories above it may be passed through but not listed, and what the step daemon
    // keeps beside it stays root's (the user cannot forge a result or a pid to signal).
    chmodSync(path.dirname(path.dirname(files.dir)), 0o711);
    chmodSync(path.dirname(files.dir), 0o711);
    chmodSync(files.dir, 0o711);
    chownSync(files.script, spec.runAs.uid, spec.runAs.gid);
  }
  writeFileSync(files.spec, JSON.stringify({ ...spec, script: files.script }), { mode: 0o600 });
  const main = fileURLToPath(new URL('../stepd/batch.js', import.meta.url));
  const logFd = openSync(files.log, 'a', 0o600);
  try {
    const child = spawn(process.execPath, [main, files.dir], { detached: true, stdio: ['ignore', logFd, logFd] });
    child.on('error', () => {});
    if (child.pid === undefined) throw new Error('spawn failed');
    const pid = child.pid;
    child.once('exit', () => onExit(pid));
    child.unref();
    return pid;
  } finally {
    closeSync(logFd);
  }
}

/** Asks a batch step to end: the reason first (for its message), then SIGTERM. */
export function killBatchStepd(files: JobFiles, pid: number | undefined, request: KillRequest): boolean {
  try {
    writeFileSync(files.kill, JSON.stringify(request));
  } catch {
    // the job's directory is gone: the daemon cannot say why, but it still ends
  }
  return pid !== undefined && signalPid(pid, 'SIGTERM');
}

/**
 * scancel -s: the signal number in signal.json, then SIGUSR2 tells the daemon to read it.
 * `shellOnly`: to the batch shell alone (scancel -b), else to everything of the batch step.
 */
export function signalBatchStepd(files: JobFiles, pid: number | undefined, signal: number, shellOnly = false): void {
  writeFileSync(files.signal, JSON.stringify({ signal, shellOnly }));
  if (pid !== undefined) signalPid(pid, 'SIGUSR2');
}

/** The result the daemon left, or undefined when it left none (it was killed, or lost). */
export function readBatchResult(files: JobFiles): BatchResult | undefined {
  try {
    return JSON.parse(readFileSync(files.result, 'utf8')) as BatchResult;
  } catch {
    return undefined;
  }
}

export function signalPid(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether `pid` is alive and is a batch step daemon (not a recycled pid). */
export function isBatchStepd(pid: number): boolean {
  if (!signalPid(pid, 0)) return false;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    // A zombie has an empty command line: it has ended.
    return cmdline.includes('batch');
  } catch {
    return existsSync(`/proc/${pid}`);
  }
}
