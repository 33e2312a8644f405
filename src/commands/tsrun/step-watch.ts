// What may end a step early, and how srun reports it: --kill-on-bad-exit after the first task
// that fails, the time limit (SIGTERM, then SIGKILL after KillWait), an abort from the mpi
// plugin (SIGKILL at once), and tsrun's own signals as srun 22.05 takes them (observed, see
// /work/ref/signals.txt; srun_job.c _srun_signal_mgr): a first Ctrl-C prints the step's status,
// a second within a second sends SIGINT to the tasks and forces the step's end (SIGKILL);
// SIGTERM and SIGHUP force it at once, SIGQUIT too after a `Quit` line; SIGUSR1 and SIGUSR2
// are passed on to the tasks; SIGCONT is only reported. --quit-on-interrupt makes the first
// Ctrl-C act as the second; -W ends the step some seconds after its first task ended
// (/work/ref/steps-quit-on-interrupt.txt, steps-wait.txt).
import { formatSlurmDate } from '../../core/time-string.js';
import { INFINITE } from '../../core/slurm-constants.js';
import { formatTaskIds, type TaskExit } from '../../core/exit-status.js';
import type { Logger } from '../../core/log.js';

export interface WatchOptions {
  stepId: string;
  firstNode: string;
  /** With -l, the first node's first task's label: slurmstepd's CANCELLED line is on its stderr. */
  firstTaskLabel?: string;
  timeLimitMinutes: number;
  killOnBadExit: boolean;
  /** --quit-on-interrupt: one Ctrl-C ends the step. */
  quitOnInterrupt?: boolean;
  /** -W: seconds the other tasks get once the first has ended (0 or absent: no limit). */
  waitAfterFirst?: number;
  log: Logger;
  running(): number[];
  /** The tasks that ended so far, for the status a first Ctrl-C prints. */
  finished(): readonly TaskExit[];
  signalAll(signal: NodeJS.Signals): void;
  /** Seconds from SIGTERM to SIGKILL (Slurm's KillWait). */
  killWaitSeconds: number;
}

export interface StepWatch {
  taskExited(exit: TaskExit): void;
  /** The mpi plugin's abort_step: kill every task now (Slurm's slurm_kill_job_step(SIGKILL)). */
  abort(message: string, error: boolean): void;
  /** abort() was called: srun prints no "Force Terminated" line then (observed). */
  readonly aborted: boolean;
  stop(): void;
  /** The user ended the step (two Ctrl-C): srun keeps quiet about the signals that followed. */
  readonly cancelledByUser: boolean;
  /**
   * The controller ends the step: tscancel, or the job's time limit as the controller keeps it.
   * `kill`: SIGKILL at once, as scancel N.S kills a step, rather than SIGTERM then SIGKILL.
   */
  end(cause: 'CANCELLED' | 'TIMEOUT', kill?: boolean): void;
  /**
   * The step was ended for its time limit, by tscancel or by tsrun's own signals (Ctrl-C twice,
   * SIGTERM, SIGHUP, SIGQUIT): srun prints no "Force Terminated" line then (observed).
   */
  readonly ended: boolean;
}

/** Seconds one minute of time limit lasts: 60, unless TSLURM_MINUTE_SECONDS shortens it (tests, demos). */
function secondsPerMinute(): number {
  const value = Number.parseFloat(process.env.TSLURM_MINUTE_SECONDS ?? '');
  return Number.isFinite(value) && value > 0 ? value : 60;
}

export function watchStep(options: WatchOptions): StepWatch {
  const { log } = options;
  const timers: NodeJS.Timeout[] = [];
  let cancelledByUser = false;
  let killing = false;
  let aborted = false;
  let ended = false;
  let lastInterrupt = 0;

  // SIGTERM now, SIGKILL after KillWait, as slurmstepd ends a step (Slurm's KillWait).
  const terminate = (): void => {
    if (killing) return;
    killing = true;
    options.signalAll('SIGTERM');
    timers.push(setTimeout(() => options.signalAll('SIGKILL'), options.killWaitSeconds * 1000).unref());
  };
  // slurmstepd's line for a cancelled step (observed on Slurm 22.05).
  const cancelledLine = (suffix: string): void => {
    const at = formatSlurmDate(Math.floor(Date.now() / 1000));
    process.stderr.write(`${options.firstTaskLabel ?? ''}tsstepd-${options.firstNode}: error: *** STEP ${options.stepId} ON ${options.firstNode} CANCELLED AT ${at}${suffix} ***\n`);
  };

  // The time limit (tsrun's own timer, or the controller's) and tscancel, as slurmstepd and
  // srun report them (observed on Slurm 22.05): the step's CANCELLED line, then srun's.
  const end = (cause: 'CANCELLED' | 'TIMEOUT', kill = false): void => {
    if (killing) return;
    ended = true;
    cancelledLine(cause === 'TIMEOUT' ? ' DUE TO TIME LIMIT' : '');
    log.info(`Job step aborted: Waiting up to ${options.killWaitSeconds + 2} seconds for job step to finish.`);
    if (!kill) return terminate();
    killing = true;
    options.signalAll('SIGKILL');
  };
  if (options.timeLimitMinutes !== INFINITE && options.timeLimitMinutes > 0) {
    const ms = options.timeLimitMinutes * secondsPerMinute() * 1000;
    timers.push(setTimeout(() => end('TIMEOUT'), ms).unref());
  }

  // srun's job_force_termination: SIGKILL to every task at once, then step_launch's line and
  // slurmstepd's; asked again, it only says so (at most once a second) and kills again.
  let lastAbortNote = 0;
  let forced = false;
  const forceTermination = (): void => {
    // A step its job's end already stops (a batch job's tsrun gets SIGTERM after the step's
    // order) still says "forcing job termination" once, as srun does (observed).
    if (ended && killing && !forced) {
      forced = true;
      log.info('forcing job termination');
      options.signalAll('SIGKILL');
      return;
    }
    if (ended && killing) {
      const now = Math.floor(Date.now() / 1000);
      if (now !== lastAbortNote) log.info('job abort in progress');
      lastAbortNote = now;
      options.signalAll('SIGKILL');
      return;
    }
    log.info('forcing job termination');
    forced = true;
    ended = true;
    killing = true;
    options.signalAll('SIGKILL');
    log.info(`Job step aborted: Waiting up to ${options.killWaitSeconds + 2} seconds for job step to finish.`);
    cancelledLine('');
  };

  // srun's _handle_intr: a Ctrl-C within a second of the last one sends SIGINT to the tasks and
  // ends the step (they usually die of the SIGINT first: srun exits 130); else the step's status.
  const onInterrupt = (): void => {
    const now = Date.now();
    if (options.quitOnInterrupt || now - lastInterrupt < 1000) {
      cancelledByUser = true;
      log.info(`sending Ctrl-C to StepId=${options.stepId}`);
      options.signalAll('SIGINT');
      forceTermination();
      return;
    }
    lastInterrupt = now;
    if (killing) return;
    log.info('interrupt (one more within 1 sec to abort)');
    printStatus();
  };
  // launch_g_print_status: the tasks by state, running first (task_state_print's order).
  const printStatus = (): void => {
    const finished = options.finished();
    const abnormal = finished.filter((t) => t.signal !== null || (t.exitCode ?? 0) !== 0).map((t) => t.taskId);
    const normal = finished.filter((t) => t.signal === null && (t.exitCode ?? 0) === 0).map((t) => t.taskId);
    const groups: Array<[number[], string]> = [
      [options.running(), 'running'],
      [abnormal, 'exited abnormally'],
      [normal, 'exited'],
    ];
    for (const [ids, state] of groups) {
      if (ids.length === 0) continue;
      const sorted = [...ids].sort((a, b) => a - b);
      log.info(`StepId=${options.stepId} ${sorted.length === 1 ? 'task' : 'tasks'} ${formatTaskIds(sorted)}: ${state}`);
    }
  };
  const handlers: Array<[NodeJS.Signals, () => void]> = [
    ['SIGINT', onInterrupt],
    ['SIGTERM', forceTermination],
    ['SIGHUP', forceTermination],
    [
      'SIGQUIT',
      () => {
        log.info('Quit');
        forceTermination();
      },
    ],
    ['SIGCONT', () => log.info('got SIGCONT')],
    ['SIGUSR1', () => options.signalAll('SIGUSR1')],
    ['SIGUSR2', () => options.signalAll('SIGUSR2')],
  ];
  for (const [signal, handler] of handlers) process.on(signal, handler);

  // srun's -W (srun_job.c _handle_max_wait, observed): once the wait has run out, the step's
  // status, the signal line, and every task left is killed at once ("Killed", 137).
  let firstExitTimer: NodeJS.Timeout | undefined;
  const waitRanOut = (): void => {
    if (killing || options.running().length === 0) return;
    log.info(`First task exited ${options.waitAfterFirst}s ago`);
    printStatus();
    log.info(`launch/slurm: _step_signal: Terminating StepId=${options.stepId}`);
    end('CANCELLED', true);
  };

  return {
    taskExited(exit) {
      if (options.waitAfterFirst && firstExitTimer === undefined) {
        firstExitTimer = setTimeout(waitRanOut, options.waitAfterFirst * 1000);
        timers.push(firstExitTimer);
      }
      if (options.killOnBadExit && !killing && (exit.signal !== null || (exit.exitCode ?? 0) !== 0)) {
        cancelledLine('');
        terminate();
      }
    },
    // As srun and slurmstepd report an MPI_Abort under mpi/pmi2 (Slurm 22.05): the two lines,
    // then every task "Killed"; the plugin's reason as an error only when Slurm would not have
    // ended the step by itself.
    abort(message, error) {
      if (aborted) return;
      aborted = true;
      if (error) log.error(message);
      else log.verbose(message);
      if (!killing) {
        log.info(`Job step aborted: Waiting up to ${options.killWaitSeconds + 2} seconds for job step to finish.`);
        cancelledLine('');
      }
      killing = true;
      options.signalAll('SIGKILL');
    },
    get aborted() {
      return aborted;
    },
    stop() {
      timers.forEach(clearTimeout);
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
    get cancelledByUser() {
      return cancelledByUser;
    },
    end,
    get ended() {
      return ended;
    },
  };
}
