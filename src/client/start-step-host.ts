// Starting the embedded step host on demand (stepd/node-daemon/local-host.ts): detached, so it
// outlives the command or controller that started it, logging to tsstepd.log in the state
// directory, with a pipe on fd 3 on which it says `ready`, `raced` (another one serves) or why
// it could not start, as the controller is started (start-controller.ts). Used by the
// controller for batch steps and by tsrun for its steps, whichever needs the host first.
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UserError } from '../core/errors.js';
import { REPORT_FD, REPORT_FD_ENV } from '../os/start-report.js';
import { startChild } from '../os/spawn.js';
import { pidIn } from '../os/lock-file.js';
import { isStepHost, localHostPaths } from '../stepd/node-daemon/local-host-paths.js';
import { CtldClient } from './ctld-client.js';

const START_TIMEOUT_MS = 15_000;
/** TSLURM_STEPD_IDLE_EXIT's default: how long an idle step host waits for the next job or step. */
const DEFAULT_IDLE_EXIT = 60;

/** Starts `tsstepd --embedded` and waits until it serves (or another one does); resolves to what it said. */
export async function startStepHost(stateDir: string, clusterFile: string | undefined): Promise<'ready' | 'raced'> {
  const paths = localHostPaths(stateDir);
  const bin = fileURLToPath(new URL('../../bin/tsstepd.js', import.meta.url));
  const args = [bin, '--embedded', '--idle-exit', String(idleExitSeconds())];
  if (clusterFile !== undefined) args.push('--cluster', clusterFile);
  const log = openSync(paths.log, 'a', 0o600);
  let said = '';
  try {
    const { child } = startChild([process.execPath, ...args], {
      detached: true,
      stdio: ['ignore', log, log, 'pipe'],
      env: { ...process.env, TSLURM_STATE_DIR: stateDir, [REPORT_FD_ENV]: String(REPORT_FD) },
    });
    const report = child.stdio[REPORT_FD] as NodeJS.ReadableStream;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the step host did not start within ${START_TIMEOUT_MS / 1000} s (see ${paths.log})`)), START_TIMEOUT_MS);
      report.on('data', (chunk: Buffer) => {
        said += chunk.toString('utf8');
        if (said.includes('\n')) (clearTimeout(timer), resolve());
      });
      report.on('error', () => {});
      child.once('exit', (code) => (clearTimeout(timer), said.includes('\n') ? resolve() : reject(new Error(`the step host exited with status ${code ?? 1} before it served (see ${paths.log})`))));
    });
    (report as { destroy?: () => void }).destroy?.();
    child.unref();
  } finally {
    closeSync(log);
  }
  const line = said.split('\n')[0] ?? '';
  if (line.startsWith('error: ')) throw new UserError(line.slice('error: '.length));
  return line === 'raced' ? 'raced' : 'ready';
}

// TSLURM_STEPD_IDLE_EXIT: how long a step host started on demand stays with no batch job or step.
function idleExitSeconds(): number {
  const text = process.env.TSLURM_STEPD_IDLE_EXIT;
  const seconds = Number(text);
  return text !== undefined && text.trim() !== '' && Number.isFinite(seconds) && seconds >= 0 ? seconds : DEFAULT_IDLE_EXIT;
}

/**
 * A connection to the state directory's step host, started when none serves. A host that is
 * starting (another command or the controller started it: its pid file names a live step
 * host) is waited for rather than raced; one that went away after its idle exit is replaced.
 */
export async function connectStepHost(stateDir: string, clusterFile: string | undefined): Promise<CtldClient> {
  const paths = localHostPaths(stateDir);
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      return await CtldClient.connect(paths.socket);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ECONNREFUSED') throw error;
      if (Date.now() > deadline) throw new UserError(`the step host did not start within ${START_TIMEOUT_MS / 1000} s (see ${paths.log})`);
    }
    const holder = pidIn(paths.pidFile);
    if (holder !== undefined && isStepHost(holder)) await new Promise((resolve) => setTimeout(resolve, delay));
    else await startStepHost(stateDir, clusterFile);
  }
}
