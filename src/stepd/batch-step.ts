// The batch step of one job (slurmstepd's batch step), run inside the node's step host: the
// job's containers, the script as a direct child with its output in files, the controller's
// kill order honoured with Slurm's message in the job's output, its signals passed on, and the
// script's end turned into the job's result. Nothing here is per-process state of its own:
// many batch steps run side by side in one step host.
import { childGone, type ChildProcess } from '../os/spawn.js';
import { closeSync, constants as fsConstants, openSync, writeSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { formatSlurmDate } from '../core/time-string.js';
import { SLURM_BATCH_SCRIPT } from '../plugin-api/records.js';
import { oomEventsMessage, SIG_OOM } from '../core/oom.js';
import { StepContainer, type ContainerPlugins } from './step-container.js';
import { taskExecHelper } from './task-pid.js';
import { startHostChild } from './host-spawn.js';
import { stepEnvOver } from './step-env.js';
import type { ContainerTask } from '../plugin-api/job-container.js';
import type { ProctrackOrphanPlan } from '../plugin-api/proctrack.js';
import type { BatchResult, BatchSpec, KillRequest } from './batch-spec.js';
import { argvAsUser, cannotEnter, type RunAs } from './run-as.js';
import { programPid } from './usage/task-rusage.js';
import { gatherBatchUsage } from './usage/batch-usage.js';
import { DEFAULT_ACCT_GATHER_SECONDS } from '../config/acct-gather.js';
import { runTaskEpilogs, runTaskPrologs } from './task-scripts.js';
import { batchScriptContext } from './batch-task-scripts.js';

/** What outlives the step host when it is killed: nothing the guard was told about. */
export interface HostGuard {
  track(pgid: number): void;
  untrack(pgid: number): void;
  container(plan: ProctrackOrphanPlan, open: boolean): void;
}

/** A batch step running in the step host. */
export interface RunningBatchStep {
  /** Settles with the result once the script and everything it left behind are gone. */
  readonly done: Promise<BatchResult>;
  /** The controller's kill order (scancel, time limit, requeue, node failure). */
  kill(request: KillRequest): void;
  /** scancel -s: to everything of the batch step, or to the batch shell alone (-b). */
  signal(signal: number, shellOnly: boolean): void;
}

/** Starts the batch step of `spec` (its script already on disk at spec.script). */
export function startBatchStep(spec: BatchSpec, plugins: () => Promise<ContainerPlugins>, guard: HostGuard): RunningBatchStep {
  const control = new StepControl(spec);
  const done = runBatchStep(spec, plugins, guard, control);
  return { done, kill: (request) => control.kill(request), signal: (signal, shellOnly) => control.signal(signal, shellOnly) };
}

async function runBatchStep(spec: BatchSpec, loadPlugins: () => Promise<ContainerPlugins>, guard: HostGuard, control: StepControl): Promise<BatchResult> {
  let plugins: ContainerPlugins;
  try {
    plugins = await loadPlugins();
  } catch (error) {
    // A plugin that cannot load is this job's launch failure, reported as such: without a
    // result the controller would take it for a lost node and requeue the job for ever.
    return { status: 1 << 8, cause: null, failure: `batch step could not load its plugins: ${message(error)}` };
  }
  let result: BatchResult;
  // slurmstepd opens the job's files as the user, with the submitter's umask.
  const output = withUmask(spec.umask, () => asUser(spec.runAs, () => openOutput(spec)));
  if (typeof output === 'string') {
    result = { status: 1 << 8, cause: null, failure: output };
  } else {
    try {
      result = await runScript(spec, plugins, output, guard, control);
    } catch (error) {
      // A container hook that fails (container_p_create, proctrack_p_create) is the job's
      // launch failure, with the plugin's words; not a lost step to requeue for ever.
      result = { status: 1 << 8, cause: null, failure: message(error) };
    } finally {
      closeSync(output.out);
      if (output.err !== output.out) closeSync(output.err);
      closeSync(output.in);
    }
  }
  // The batch step ends the job on this node: its job container goes with it.
  await plugins.container.delete(spec.jobId).catch(() => {});
  if (control.killRequest && !result.cause) result.cause = control.killRequest.cause;
  return result;
}

/** The kill and signal orders of one batch step, applied to its container once it exists. */
class StepControl {
  killRequest: KillRequest | undefined;
  /** A SIGKILL went to the whole step (KillWait after the kill order, or scancel -s KILL). */
  killed = false;
  private container: StepContainer | undefined;
  private shell: ChildProcess | undefined;
  private errFd: number | undefined;
  private killTimer: NodeJS.Timeout | undefined;
  private viaHelper = false;
  private announced = false;

  constructor(private readonly spec: BatchSpec) {}

  /** The step's container exists: orders reach what runs in it before the script (TaskProlog). */
  open(container: StepContainer, errFd: number): void {
    this.container = container;
    this.errFd = errFd;
    if (this.killRequest) this.carryOutKill(this.killRequest);
  }

  /** The script runs: orders that came before it are carried out now. */
  attach(container: StepContainer, shell: ChildProcess, errFd: number, viaHelper: boolean): void {
    this.container = container;
    this.shell = shell;
    this.viaHelper = viaHelper;
    this.errFd = errFd;
    if (this.killRequest) this.carryOutKill(this.killRequest);
  }

  detach(): void {
    if (this.killTimer) clearTimeout(this.killTimer);
    this.container = undefined;
    this.shell = undefined;
  }

  kill(request: KillRequest): void {
    if (this.killRequest) return;
    this.killRequest = request;
    if (this.container) this.carryOutKill(request);
  }

  signal(signal: number, shellOnly: boolean): void {
    const name = Object.entries(constants.signals).find(([, n]) => n === signal)?.[0] as NodeJS.Signals | undefined;
    if (!name || !this.container) return;
    // -b: the batch shell alone; its children are not signalled, as slurmstepd does.
    // The batch shell is the helper's child when the helper waits for it (--rusage-fd).
    this.killed ||= name === 'SIGKILL' && !shellOnly;
    if (shellOnly) signalPid(this.shell?.pid === undefined ? undefined : this.viaHelper ? programPid(this.shell.pid) : this.shell.pid, name);
    else void this.container.signal(name).catch(() => {});
  }

  // slurmstepd's line in the job's output (named after the node, as Slurm 22.05 prints it:
  // /work/ref/signals.txt, task-prolog-cancel.txt), then SIGCONT+SIGTERM to everything of the
  // job, SIGKILL after KillWait.
  private carryOutKill(request: KillRequest): void {
    const { spec } = this;
    const container = this.container!;
    const due = DUE_TO[request.cause] ?? '';
    try {
      // Once, though the order is carried out again when the script starts after the prolog.
      if (!this.announced) writeSync(this.errFd!, `slurmstepd-${spec.nodeName}: error: *** JOB ${spec.jobId} ON ${spec.nodeName} CANCELLED AT ${formatSlurmDate(request.at)}${due} ***\n`);
      this.announced = true;
    } catch {
      // the output file may be gone; the kill still happens
    }
    void container.signal('SIGCONT').then(() => container.signal('SIGTERM')).catch(() => {});
    this.killTimer ??= setTimeout(() => {
      this.killed = true;
      void container.signal('SIGKILL').catch(() => {});
    }, spec.killWaitSeconds * 1000);
  }
}

interface OutputFds {
  out: number;
  err: number;
  in: number;
}

/**
 * The script's stdio, opened as slurmstepd opens them (O_APPEND in both modes, so the script's
 * writes and the step's own lines never overwrite each other); a failure is returned as text.
 */
function openOutput(spec: BatchSpec): OutputFds | string {
  const { O_APPEND, O_CREAT, O_TRUNC, O_WRONLY } = fsConstants;
  const flags = O_WRONLY | O_CREAT | O_APPEND | (spec.openMode === 'append' ? 0 : O_TRUNC);
  let current = spec.stdout;
  const opened: number[] = [];
  try {
    const out = openSync(spec.stdout, flags, 0o644);
    opened.push(out);
    current = spec.stderr;
    const err = spec.stderr === spec.stdout ? out : openSync(spec.stderr, flags, 0o644);
    if (err !== out) opened.push(err);
    current = spec.stdin;
    return { out, err, in: openSync(spec.stdin, 'r') };
  } catch (error) {
    opened.forEach((fd) => closeSync(fd));
    return `Could not open ${current === spec.stdin ? 'stdin' : current === spec.stderr ? 'stderr' : 'stdout'} file ${current}: ${(error as Error).message}`;
  }
}

async function runScript(spec: BatchSpec, plugins: ContainerPlugins, fds: OutputFds, guard: HostGuard, control: StepControl): Promise<BatchResult> {
  const env = [...spec.env];
  const ids = { jobId: spec.jobId, stepId: SLURM_BATCH_SCRIPT, nodeName: spec.nodeName, stepMem: spec.memLimitMb, owner: spec.runAs };
  if (spec.runAs && (await cannotEnter(spec.runAs, path.dirname(spec.script)))) {
    throw new Error(`user ${spec.runAs.name} cannot reach the batch script in ${path.dirname(spec.script)}: every directory above tsstepd's spool must be searchable (o+x)`);
  }
  const cwd = await workDirFor(spec, fds.err);
  const container = await StepContainer.open(plugins, ids, stepEnvOver(env));
  // The step host's guard ends the step's processes if the host is killed (SIGKILL).
  const plan = await container.orphanPlan().catch(() => ({}) as ProctrackOrphanPlan);
  guard.container(plan, true);
  try {
    return await runInContainer({ spec, fds, guard, control, env, cwd, container, plan });
  } catch (error) {
    // A hook that failed once the container existed (the job container's join, the spawn):
    // what runs in it is killed and it goes, as at the script's end; nothing is left behind.
    if (!container.closed) {
      await container.close().catch(() => {});
      control.detach();
      guard.container(plan, false);
    }
    throw error;
  }
}

/** The batch step once its container exists: the prolog, the script, the epilog, the container's end. */
async function runInContainer(run: {
  spec: BatchSpec;
  fds: OutputFds;
  guard: HostGuard;
  control: StepControl;
  env: string[];
  cwd: string;
  container: StepContainer;
  plan: ProctrackOrphanPlan;
}): Promise<BatchResult> {
  const { spec, fds, guard, control, env, cwd, container, plan } = run;
  // slurm.conf's TaskProlog, as before a step's task; its exports reach the script, its failure
  // is the script's (which never runs). The epilog sees the environment from before it.
  control.open(container, fds.err);
  const scripts = batchScriptContext(spec, container, cwd, fds);
  const epilogEnv = [...env];
  const prologFailed = await runTaskPrologs({ slurm: spec.confTaskProlog }, env, scripts);
  if (prologFailed !== undefined) {
    await runTaskEpilogs({ slurm: spec.confTaskEpilog }, epilogEnv, scripts).catch(() => {});
    await container.close().finally(() => {
      control.detach();
      guard.container(plan, false);
    });
    return { status: prologFailed.status << 8, cause: null, failure: null };
  }
  // SLURM_TASK_PID is the script's own pid: the task exec helper writes it into the placeholder
  // batchEnv() left and execs the script, keeping the pid (so the script's shell is the only one
  // to re-export the environment, and orders it as on Slurm); without the helper a shell sets it.
  const helper = taskExecHelper();
  const script = helper
    ? [helper, ...(spec.rlimits ?? []).flatMap((limit) => ['--rlimit', limit]), '--rusage-fd', '3', '--', spec.script, ...spec.argv]
    : ['/bin/sh', '-c', 'SLURM_TASK_PID=$$; export SLURM_TASK_PID; exec "$0" "$@"', spec.script, ...spec.argv];
  // As the user: setpriv first, so the plugins' wrappers (run as root) exec it last.
  const task: ContainerTask = {
    argv: spec.runAs ? argvAsUser(spec.runAs, script) : script,
    env: stepEnvOver(env),
    cwd,
    ...(helper === undefined ? {} : { taskExec: helper }),
  };
  await container.join(task);
  // The job's container may hide the directory (job_container/tmpfs's private /tmp).
  if (task.cwdError !== undefined) chdirFailed(spec, fds.err, cwd, task.cwdError);
  // The umask is the process's: set for the spawn alone (the child inherits it), then restored.
  const started = await withUmask(spec.umask, () =>
    startHostChild(task.argv, {
      cwd: task.cwd ?? cwd,
      env,
      // Its own process group: signals to the host's group do not reach it, and the guard
      // kills the group as a whole.
      detached: true,
      // fd 3: the helper's report of the script's rusage (usage/task-rusage.ts), on Node's
      // spawn; the spawn server reports it itself, the script a direct child of it.
      stdio: helper ? [fds.in, fds.out, fds.err, 'pipe'] : [fds.in, fds.out, fds.err],
    }),
  );
  const { child, ended, viaHelper } = started;
  const usage = gatherBatchUsage({
    nodeName: spec.nodeName,
    pid: child.pid,
    rusage: started.rusage,
    viaHelper,
    frequencySeconds: spec.acctGatherFrequency ?? DEFAULT_ACCT_GATHER_SECONDS,
    // Live samples beside the job's script, in the step host's spool.
    jobDir: path.dirname(spec.script),
  });
  // A SIGKILL sent to the step before the script's end was known ends it by SIGKILL, whatever
  // ended the script: the helper waiting for it took that SIGKILL itself (tstask_exec.c).
  const exited: Promise<number | string> = ended.then((end) =>
    end.kind !== 'exec-failed' && control.killed && !viaHelper ? constants.signals.SIGKILL : end.kind === 'exited' ? end.code << 8 : end.kind === 'signaled' ? (constants.signals[end.signal] ?? 9) : end.message,
  );
  const pid = child.pid;
  if (pid !== undefined) {
    guard.track(pid);
    await container.adopt(pid, () => childGone(child));
  }
  control.attach(container, child, fds.err, viaHelper);

  const outcome = await exited;
  // ---- The script has ended: `outcome` is its wait status (or why it could not exec). ----
  // slurm.conf's TaskEpilog, before the step's container goes, as for a step's task.
  await runTaskEpilogs({ slurm: spec.confTaskEpilog }, epilogEnv, scripts).catch(() => {});
  const used = await usage.finish(plan.cgroup);
  // The script is gone; whatever it left behind is not (daemons, background jobs).
  const oomKills = await container.close().finally(() => {
    control.detach();
    if (pid !== undefined) guard.untrack(pid);
    guard.container(plan, false);
  });
  if (typeof outcome === 'string') {
    return { status: execStatus(outcome), cause: null, failure: `execve(): ${spec.script}: ${outcome}`, ...(used && { usage: used }) };
  }
  if (oomKills > 0) {
    // slurmstepd's line in the job's output; the job's status becomes SIG_OOM (mgr.c).
    try {
      writeSync(fds.err, `slurmstepd: error: ${oomEventsMessage(oomKills, `${spec.jobId}.batch`)}\n`);
    } catch {
      // the output file may be gone; the status still says it
    }
    return { status: SIG_OOM, cause: null, failure: null, ...(used && { usage: used }) };
  }
  return { status: outcome, cause: null, failure: null, ...(used && { usage: used }) };
}

/** Runs `work` under the submitter's umask (octal text), then puts the host's back. */
function withUmask<T>(umask: string | undefined, work: () => T): T {
  if (umask === undefined) return work();
  const previous = process.umask(Number.parseInt(umask, 8));
  try {
    return work();
  } finally {
    process.umask(previous);
  }
}

/**
 * Runs `work` with the user's groups, gid and uid as the effective ones, then back to root's.
 * Synchronous on purpose: nothing else of the host runs while the identity is the user's.
 */
function asUser<T>(who: RunAs | undefined, work: () => T): T {
  if (!who) return work();
  const groups = process.getgroups!();
  process.setgroups!(who.groups);
  process.setegid!(who.gid);
  process.seteuid!(who.uid);
  try {
    return work();
  } finally {
    process.seteuid!(0);
    process.setegid!(0);
    process.setgroups!(groups);
  }
}

/**
 * The job's working directory, or /tmp with slurmstepd's line when the user cannot enter it:
 * twice, as slurmstepd prints it for the node and again in the script's forked child (observed:
 * `sbatch -D /nonexistent/dir`, /work/ref/srun-chdir-missing.txt).
 */
async function workDirFor(spec: BatchSpec, errFd: number): Promise<string> {
  const why = await cannotEnter(spec.runAs, spec.workDir);
  if (why === undefined) return spec.workDir;
  chdirFailed(spec, errFd, spec.workDir, why);
  chdirFailed(spec, errFd, spec.workDir, why);
  return '/tmp';
}

/** slurmstepd's line in the job's output when the script starts in /tmp instead of `dir`. */
function chdirFailed(spec: BatchSpec, errFd: number, dir: string, why: string): void {
  try {
    writeSync(errFd, `slurmstepd-${spec.nodeName}: error: couldn't chdir to \`${dir}': ${why}: going to /tmp instead\n`);
  } catch {
    // the output file may be gone; the script still runs
  }
}

// An exec failure ends the batch step as slurmstepd's child does: with the errno as exit code.
function execStatus(text: string): number {
  if (text.includes('EACCES')) return 13 << 8;
  if (text.includes('ENOENT')) return 2 << 8;
  return 1 << 8;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// slurmstepd's " DUE TO ..." for each reason the controller gives (a plain cancel has none).
const DUE_TO: Partial<Record<KillRequest['cause'], string>> = {
  TIMEOUT: ' DUE TO TIME LIMIT',
  NODE_FAIL: ' DUE TO NODE FAILURE',
  REQUEUE: ' DUE TO JOB REQUEUE',
  PREEMPTED: ' DUE TO PREEMPTION',
  PREEMPT_REQUEUE: ' DUE TO PREEMPTION',
};

function signalPid(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid !== undefined) process.kill(pid, signal);
  } catch {
    // already gone
  }
}
