// Starting the controller: in the foreground (-D), or as slurmctld does by default, in the
// background — a detached copy of itself with -D, logging to tsctld.log in the state
// directory; this process returns once that copy answers on its socket, or reports why it
// could not start.
import { ensureDir } from '../../core/ensure-dir.js';
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { UserError } from '../../core/errors.js';
import { loadCluster } from '../../config/load.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { killWaitSeconds, minJobAgeSeconds } from '../../config/kill-wait.js';
import { CtldClient } from '../../client/ctld-client.js';

export interface StartOptions {
  cluster?: string;
  verbose: number;
  idleExitSeconds: number;
  foreground: boolean;
  bin: string;
  argv: string[];
}

export async function startController(options: StartOptions): Promise<number> {
  const config = await loadCluster({ file: options.cluster });
  const stateDir = resolveStateDir(config);
  if (!options.foreground) return startInBackground(options, stateDir);
  const log = createLogger(options.bin, levelFromVerbosity(options.verbose));
  const { runDaemon } = await import('../../ctld/daemon.js');
  return runDaemon({
    config,
    stateDir,
    log,
    idleExitSeconds: options.idleExitSeconds,
    minuteSeconds: positive(process.env.TSLURM_MINUTE_SECONDS, 60),
    killWaitSeconds: killWaitSeconds(config),
    minJobAge: minJobAgeSeconds(config),
  });
}

function positive(text: string | undefined, fallback: number): number {
  const value = Number.parseFloat(text ?? '');
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

async function startInBackground(options: StartOptions, stateDir: string): Promise<number> {
  const logFile = path.join(stateDir, 'tsctld.log');
  let logFd: number;
  try {
    ensureDir(stateDir);
    logFd = openSync(logFile, 'a', 0o600);
  } catch (error) {
    throw new UserError(`state directory ${stateDir} is not writable: ${(error as NodeJS.ErrnoException).code ?? ''}`);
  }
  const socketPath = path.join(stateDir, 'tsctld.sock');
  const running = await CtldClient.connect(socketPath).catch(() => undefined);
  if (running) {
    running.close();
    closeSync(logFd);
    throw new UserError(`another tsctld is already using state directory ${stateDir}`);
  }
  const offset = statSync(logFile).size;
  const child = spawn(process.execPath, [process.argv[1]!, '-D', ...options.argv], {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: { ...process.env, TSLURM_STATE_DIR: stateDir },
  });
  closeSync(logFd);
  let exitCode: number | null = null;
  child.once('exit', (code) => (exitCode = code ?? 1));
  for (let delay = 10; ; delay = Math.min(delay * 2, 200)) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    if (exitCode !== null) {
      // It could not start: its own message is in the log.
      process.stderr.write(readFileSync(logFile, 'utf8').slice(offset));
      return exitCode;
    }
    try {
      (await CtldClient.connect(socketPath)).close();
      child.unref();
      return 0;
    } catch {
      // not up yet
    }
  }
}
