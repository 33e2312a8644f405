// salloc's life: ask the controller for an allocation (starting a tsctld on demand, as tsbatch
// does), print salloc's lines while it is queued and once granted, run the command (or the login shell)
// with the allocation's environment while holding the job over the connection, carry out what
// the controller orders meanwhile (scancel and the time limit revoke the allocation; the command
// runs on unless --kill-command), and relinquish the allocation when the command ends. Messages,
// order and exit statuses as salloc 22.05 prints them (observed: /work/ref/salloc.txt).
import os, { constants } from 'node:os';
import { UserError } from '../../core/errors.js';
import { compressHostlist } from '../../core/hostlist.js';
import type { Logger } from '../../core/log.js';
import type { ClusterConfig } from '../../config/types.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { connectController } from '../../client/ctld-client.js';
import { startChild } from '../../os/spawn.js';
import type { AllocateAnswer, Grant, JobOrder } from '../../protocol/ctld-answers.js';
import { Link } from '../tsrun/ctld-allocation.js';
import { allocateRefusal, jobDescFor } from '../tsrun/ctld-request.js';
import type { StepRequest } from '../tsrun/request.js';
import { sallocEnv } from './salloc-env.js';

export interface SallocRequest {
  req: StepRequest;
  /** The command and its arguments; empty: the user's login shell. */
  command: string[];
  noShell: boolean;
  hold: boolean;
  /** -I: seconds to wait for the grant (0: it must be granted at once); undefined: wait for ever. */
  immediate: number | undefined;
  /** --kill-command: the signal the command gets when the allocation is revoked. */
  killSignal: NodeJS.Signals | undefined;
  /** --bell / --no-bell / neither: when to ring the terminal bell at the grant. */
  bell: Bell;
  /** --begin: the earliest start (seconds since the epoch; 0: none). */
  beginTime: number;
  comment: string | undefined;
}

export type Bell = 'always' | 'never' | 'after-delay';

/** salloc rings after a wait of more than this many seconds unless told (DEFAULT_BELL_DELAY). */
const BELL_DELAY_SECONDS = 10;

export async function allocateAndRun(s: SallocRequest, config: ClusterConfig, log: Logger): Promise<number> {
  const stateDir = resolveStateDir(config);
  const clusterFile = config.source.startsWith('/') ? config.source : undefined;
  const connect = () => connectController({ config, stateDir, clusterFile, autostart: true });
  const link = new Link(connect, await connect());
  let grant: Grant;
  const asked = Date.now();
  try {
    grant = await allocation(s, config, link, log);
  } catch (error) {
    link.close();
    if (!(error instanceof Revoked)) throw error;
    log.info(`Job allocation ${error.jobId} has been revoked.`);
    return 1;
  }
  log.info(`Granted job allocation ${grant.jobId}`);
  // job_container/tmpfs needs PrologFlags=Contain (which implies Alloc) on Slurm, so its jobs
  // configure first and salloc waits for them with these two lines (observed in the real
  // Slurm's tmpfs mode); tslurm's tmpfs jobs are set up by the time they are granted.
  if (config.plugins.jobContainer === 'job_container/tmpfs') {
    log.info('Waiting for resource configuration');
    log.info(`Nodes ${compressHostlist(grant.nodeNames)} are ready for job`);
  }
  if (s.bell === 'always' || (s.bell === 'after-delay' && Date.now() - asked > BELL_DELAY_SECONDS * 1000)) ringBell();
  if (s.noShell) {
    // The controller keeps a detached allocation when its holder goes.
    link.close();
    return 0;
  }
  return runHolding(s, grant, link, log, {
    clusterName: config.clusterName,
    confFile: clusterFile,
    clusterFile,
    stateDir,
  });
}

async function allocation(s: SallocRequest, config: ClusterConfig, link: Link, log: Logger): Promise<Grant> {
  const desc = jobDescFor(s.req);
  desc.name = s.req.jobName ?? (s.noShell ? 'no-shell' : 'interactive');
  desc.command = s.command[0] ?? shellOf();
  desc.argv = s.command.slice(1);
  desc.hold = s.hold;
  desc.beginTime = s.beginTime;
  desc.comment = s.comment;
  desc.interactive = { pid: process.pid, ...(s.noShell && { detached: true }) };
  let answer: AllocateAnswer;
  try {
    answer = await link.call<AllocateAnswer>(['allocate', { desc }]);
  } catch (error) {
    throw allocateRefusal(error, s.req, config, log);
  }
  const jobId = answer.jobId;
  link.jobId = jobId;
  if (!answer.pending) return answer.grant!;
  const revoked = (why: string): Revoked => {
    log.error(`Unable to allocate resources: ${why}`);
    // The connection closing ends the queued job on the controller's side.
    return new Revoked(jobId);
  };
  // -I alone: granted now or not at all; a held job can never be (observed on Slurm 22.05).
  if (s.immediate === 0) throw revoked(s.hold ? 'Job dependency problem' : 'Requested nodes are busy');
  if (s.hold) log.info('Job is in held state, pending scheduler release');
  // Slurm's allocate call prints the controller's warning before salloc's own lines.
  if (answer.notice !== undefined) log.info(answer.notice);
  log.info(`Pending job allocation ${jobId}`);
  log.info(`job ${jobId} queued and waiting for resources`);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    if (s.immediate !== undefined) timer = setTimeout(() => resolve('timeout'), s.immediate * 1000);
  });
  try {
    const granted = await Promise.race([link.call<Grant>(['allocation', { jobId }]), timedOut]);
    if (granted === 'timeout') throw revoked('Connection timed out');
    log.info(`job ${jobId} has been allocated resources`);
    return granted;
  } catch (error) {
    if (error instanceof UserError && error.code === 'ESLURM_ALREADY_DONE') {
      // Cancelled while queued.
      throw new Revoked(jobId);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The allocation ended before it was granted (-I, scancel): salloc says so and exits 1. */
class Revoked extends Error {
  constructor(readonly jobId: number) {
    super(`job ${jobId} revoked`);
  }
}

async function runHolding(
  s: SallocRequest,
  grant: Grant,
  link: Link,
  log: Logger,
  facts: { clusterName: string; confFile: string | undefined; clusterFile: string | undefined; stateDir: string },
): Promise<number> {
  const argv = s.command.length > 0 ? s.command : [shellOf()];
  const env = sallocEnv(process.env, { grant, req: s.req, ...facts });
  let revoked = false;
  // salloc leaves terminal signals to the command, which shares its terminal (and process group).
  const ignore = (): void => {};
  for (const sig of ['SIGINT', 'SIGQUIT', 'SIGTSTP'] as const) process.on(sig, ignore);
  const started = startChild(argv, { stdio: 'inherit', env, cwd: s.req.chdir ?? process.cwd() });
  const { child } = started;
  const ended = started.ended.then((end): { status: number; waitStatus: number } => {
    if (end.kind === 'exited') return exitOf(end.code, null);
    if (end.kind === 'signaled') return exitOf(null, end.signal);
    log.error(`_fork_command: Unable to find command "${argv[0]}"`);
    return { status: 1, waitStatus: (end.errno === 'EACCES' ? 126 : 127) << 8 };
  });
  // The controller's orders: scancel and the time limit revoke the allocation.
  void (async () => {
    for (;;) {
      const order = await link.call<JobOrder>(['watch', { jobId: grant.jobId }]).catch(() => undefined);
      if (order === undefined || (order.cause === undefined && order.signal === undefined)) return;
      if (order.cause === undefined) continue; // scancel -s: salloc itself runs no tasks to signal
      revoked = true;
      log.info(
        order.cause === 'TIMEOUT'
          ? `Job ${grant.jobId} has exceeded its time limit and its allocation has been revoked.`
          : `Job allocation ${grant.jobId} has been revoked.`,
      );
      if (s.killSignal !== undefined && child.pid !== undefined) child.kill(s.killSignal);
      // The job ends now, whatever the command does next.
      link.stop();
      await link.call(['complete', { jobId: grant.jobId, status: 0 }], 1).catch(() => {});
      return;
    }
  })();
  const { status, waitStatus } = await ended;
  for (const sig of ['SIGINT', 'SIGQUIT', 'SIGTSTP'] as const) process.off(sig, ignore);
  if (!revoked) {
    log.info(`Relinquishing job allocation ${grant.jobId}`);
    link.stop();
    await link.call(['complete', { jobId: grant.jobId, status: waitStatus }], 1).catch(() => {});
  }
  link.close();
  return status;
}

/**
 * salloc's exit status: the command's exit code; killed by SIGHUP, SIGINT, SIGQUIT or SIGKILL
 * (most likely the user's doing) 0, by any other signal 1 (observed on Slurm 22.05).
 */
function exitOf(code: number | null, signal: NodeJS.Signals | null): { status: number; waitStatus: number } {
  if (signal === null) return { status: code ?? 0, waitStatus: (code ?? 0) << 8 };
  const quiet = ['SIGHUP', 'SIGINT', 'SIGQUIT', 'SIGKILL'].includes(signal);
  return { status: quiet ? 0 : 1, waitStatus: constants.signals[signal] ?? 0 };
}

/** The bell goes to a terminal only (salloc's _ring_terminal_bell). */
function ringBell(): void {
  if (process.stdout.isTTY) process.stdout.write('\x07');
}

/** salloc's default command: the user's login shell from the password database, not $SHELL (observed). */
function shellOf(): string {
  try {
    return os.userInfo().shell || '/bin/sh';
  } catch {
    return '/bin/sh';
  }
}
