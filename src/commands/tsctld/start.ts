// Starting the controller: in the foreground (-D), or as slurmctld does by default, in the
// background — a detached copy of itself with -D, logging to tsctld.log in the state
// directory; this process returns once that copy says it serves, or reports why it could not
// start (os/start-report.ts).
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger, levelFromVerbosity } from '../../core/log.js';
import { resilientSink } from '../../os/log-sink.js';
import { UserError } from '../../core/errors.js';
import { REPORT_FD, REPORT_FD_ENV, reportStart } from '../../os/start-report.js';
import { loadCluster } from '../../config/load.js';
import { notWritable, prepareStateDir, resolveStateDir } from '../../config/state-dir.js';
import { killWaitSeconds, minJobAgeSeconds } from '../../config/kill-wait.js';
import { recordControllerKnobs } from '../../config/controller-knobs.js';
import { CtldClient } from '../../client/ctld-client.js';
import { AlreadyRunning } from '../../ctld/ctld-lock.js';
import { startChild } from '../../os/spawn.js';

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
  const log = createLogger(options.bin, levelFromVerbosity(options.verbose), resilientSink(options.bin));
  const { runDaemon } = await import('../../ctld/daemon.js');
  const knobs = {
    idleExitSeconds: options.idleExitSeconds,
    minuteSeconds: positive(process.env.TSLURM_MINUTE_SECONDS, 60),
    killWaitSeconds: killWaitSeconds(config),
    minJobAge: minJobAgeSeconds(config),
  };
  return runDaemon({
    config,
    stateDir,
    log,
    ...knobs,
    onReady: () => {
      // Before the report: a command that waits for it may read them at once.
      recordControllerKnobs(stateDir, {
        TSLURM_MINUTE_SECONDS: knobs.minuteSeconds,
        TSLURM_KILL_WAIT: knobs.killWaitSeconds,
        TSLURM_MIN_JOB_AGE: knobs.minJobAge,
        TSLURM_CTLD_IDLE_EXIT: knobs.idleExitSeconds,
      });
      reportStart('ready');
    },
  });
}

function positive(text: string | undefined, fallback: number): number {
  const value = Number.parseFloat(text ?? '');
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

async function startInBackground(options: StartOptions, stateDir: string): Promise<number> {
  prepareStateDir(stateDir);
  const logFile = path.join(stateDir, 'tsctld.log');
  let logFd: number;
  try {
    logFd = openSync(logFile, 'a', 0o600);
  } catch (error) {
    throw notWritable(stateDir, error);
  }
  const socketPath = path.join(stateDir, 'tsctld.sock');
  const running = await CtldClient.connect(socketPath).catch(() => undefined);
  if (running) {
    running.close();
    closeSync(logFd);
    throw new AlreadyRunning(pidIn(path.join(stateDir, 'tsctld.pid')), stateDir);
  }
  const { child, ended } = startChild([process.execPath, process.argv[1]!, '-D', ...options.argv], {
    detached: true,
    stdio: ['ignore', logFd, logFd, 'pipe'],
    env: { ...process.env, TSLURM_STATE_DIR: stateDir, [REPORT_FD_ENV]: String(REPORT_FD) },
  });
  closeSync(logFd);
  const said = await new Promise<string>((resolve) => {
    let text = '';
    const report = child.stdio[REPORT_FD] as NodeJS.ReadableStream;
    report.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    report.on('error', () => {});
    report.on('end', () => resolve(text));
    void ended.then((end) => resolve(text || `error: tsctld exited with status ${end.kind === 'exited' ? end.code : 1} before it served (see ${logFile})`));
  });
  const line = said.split('\n')[0]!;
  if (line !== 'ready') throw new UserError(line.startsWith('error: ') ? line.slice('error: '.length) : `tsctld did not start (see ${logFile})`);
  (child.stdio[REPORT_FD] as NodeJS.ReadableStream & { destroy(): void }).destroy();
  child.unref();
  return 0;
}

function pidIn(file: string): number {
  try {
    return Number.parseInt(readFileSync(file, 'utf8'), 10) || 0;
  } catch {
    return 0;
  }
}
