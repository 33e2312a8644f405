// The batch step of one job (see batch-main.ts): the job's containers, the script with its
// output in files, the controller's kill request honoured with Slurm's message in the job's
// output, and the result left for the controller.
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { writeFileAtomic } from '../os/atomic-write.js';
import { constants } from 'node:os';
import path from 'node:path';
import { createLogger } from '../core/log.js';
import { formatSlurmDate } from '../core/time-string.js';
import { createPluginRegistry } from '../plugin-host/create.js';
import { JobContainerFacade } from '../interfaces/job-container.js';
import { loadProctrack } from '../interfaces/proctrack-load.js';
import { SLURM_BATCH_SCRIPT } from '../plugin-api/records.js';
import { envArrayToObject } from '../core/env-array.js';
import { oomEventsMessage, SIG_OOM } from '../core/oom.js';
import { StepContainer, type ContainerPlugins } from './step-container.js';
import { taskExecHelper } from './task-pid.js';
import { stepEnvOver } from './step-env.js';
import type { ContainerTask } from '../plugin-api/job-container.js';
import type { BatchResult, BatchSpec, KillRequest } from './batch-spec.js';
import { argvAsUser, cannotEnter, type RunAs } from './run-as.js';
import { programPid, readRusage } from './usage/task-rusage.js';
import { gatherBatchUsage } from './usage/batch-usage.js';
import { DEFAULT_ACCT_GATHER_SECONDS } from '../config/acct-gather.js';

export async function runBatchStep(jobDir: string): Promise<number> {
  const spec = JSON.parse(readFileSync(path.join(jobDir, 'spec.json'), 'utf8')) as BatchSpec;
  const log = createLogger('tsstepd', 'info');
  const config = spec.plugins;
  const registry = createPluginRegistry(config, log);
  let killRequest: KillRequest | undefined;
  let result: BatchResult;
  try {
    let plugins: ContainerPlugins;
    try {
      plugins = {
        container: new JobContainerFacade(await registry.get('job_container', config.plugins.jobContainer), registry.timeoutMs),
        proctrack: await loadProctrack(registry, config.plugins),
      };
    } catch (error) {
      // A plugin that cannot load is this job's launch failure, reported as such: without a
      // result the controller would take it for a lost node and requeue the job for ever.
      const failure = `batch step could not load its plugins: ${error instanceof Error ? error.message : String(error)}`;
      writeResult(path.join(jobDir, 'result.json'), { status: 1 << 8, cause: null, failure });
      return 0;
    }
    // The submitter's umask: for the output files as for the script (one process per job).
    if (spec.umask !== undefined) process.umask(Number.parseInt(spec.umask, 8));
    // slurmstepd opens the job's files as the user: what the user may not write fails the job.
    const output = asUser(spec.runAs, () => openOutput(spec));
    if (typeof output === 'string') {
      result = { status: 1 << 8, cause: null, failure: output };
    } else {
      try {
        result = await runScript(spec, plugins, output, (request) => (killRequest = request), jobDir);
      } catch (error) {
        // A container hook that fails (container_p_create, proctrack_p_create) is the job's
        // launch failure, with the plugin's words; not a lost step to requeue for ever.
        result = { status: 1 << 8, cause: null, failure: error instanceof Error ? error.message : String(error) };
      } finally {
        closeSync(output.out);
        if (output.err !== output.out) closeSync(output.err);
      }
    }
    // The batch step ends the job on this node: its job container goes with it.
    await plugins.container.delete(spec.jobId).catch((error: Error) => log.error(error.message));
  } finally {
    await registry.finiAll();
  }
  if (killRequest && !result.cause) result.cause = killRequest.cause;
  writeResult(path.join(jobDir, 'result.json'), result);
  return 0;
}

interface OutputFds {
  out: number;
  err: number;
  in: number;
}

/** The script's stdio, opened as slurmstepd opens them; a failure is returned as text. */
function openOutput(spec: BatchSpec): OutputFds | string {
  const flags = spec.openMode === 'append' ? 'a' : 'w';
  let current = spec.stdout;
  try {
    const out = openSync(spec.stdout, flags, 0o644);
    current = spec.stderr;
    const err = spec.stderr === spec.stdout ? out : openSync(spec.stderr, flags, 0o644);
    current = spec.stdin;
    return { out, err, in: openSync(spec.stdin, 'r') };
  } catch (error) {
    return `Could not open ${current === spec.stdin ? 'stdin' : current === spec.stderr ? 'stderr' : 'stdout'} file ${current}: ${(error as Error).message}`;
  }
}

async function runScript(
  spec: BatchSpec,
  plugins: ContainerPlugins,
  fds: OutputFds,
  onKill: (request: KillRequest) => void,
  jobDir: string,
): Promise<BatchResult> {
  const env = [...spec.env];
  const ids = { jobId: spec.jobId, stepId: SLURM_BATCH_SCRIPT, nodeName: spec.nodeName, stepMem: spec.memLimitMb, owner: spec.runAs };
  if (spec.runAs && (await cannotEnter(spec.runAs, path.dirname(spec.script)))) {
    throw new Error(`user ${spec.runAs.name} cannot reach the batch script in ${path.dirname(spec.script)}: every directory above tsstepd's spool must be searchable (o+x)`);
  }
  const cwd = await workDirFor(spec, fds.err);
  const container = await StepContainer.open(plugins, ids, stepEnvOver(env));
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
  const child = spawn(task.argv[0]!, task.argv.slice(1), {
    cwd: task.cwd ?? cwd,
    env: envArrayToObject(env),
    detached: true,
    // fd 3: the helper's report of the script's rusage (usage/task-rusage.ts).
    stdio: helper ? [fds.in, fds.out, fds.err, 'pipe'] : [fds.in, fds.out, fds.err],
  });
  const usage = gatherBatchUsage({
    nodeName: spec.nodeName,
    pid: child.pid,
    rusage: helper && child.pid !== undefined ? readRusage(child.stdio[3] as Readable) : Promise.resolve(undefined),
    viaHelper: helper !== undefined,
    frequencySeconds: spec.acctGatherFrequency ?? DEFAULT_ACCT_GATHER_SECONDS,
    jobDir,
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(signal ? (constants.signals[signal] ?? 9) : (code ?? 0) << 8));
  });
  if (child.pid !== undefined) {
    const pid = child.pid;
    await container.adopt(pid, () => child.exitCode !== null || child.signalCode !== null);
  }

  let killTimer: NodeJS.Timeout | undefined;
  process.on('SIGTERM', () => {
    const request = readKillRequest(jobDir);
    onKill(request);
    // slurmstepd's line in the job's output, then SIGCONT+SIGTERM to everything of the job,
    // SIGKILL after KillWait.
    const due = DUE_TO[request.cause] ?? '';
    try {
      writeSync(fds.err, `slurmstepd: error: *** JOB ${spec.jobId} ON ${spec.nodeName} CANCELLED AT ${formatSlurmDate(request.at)}${due} ***\n`);
    } catch {
      // the output file may be gone; the kill still happens
    }
    void container.signal('SIGCONT').then(() => container.signal('SIGTERM')).catch(() => {});
    killTimer ??= setTimeout(() => void container.signal('SIGKILL').catch(() => {}), spec.killWaitSeconds * 1000);
  });
  // scancel -s: the signal named in signal.json, to everything of the batch step (-f), or to
  // the batch shell alone (-b; its children are not signalled, as slurmstepd does).
  process.on('SIGUSR2', () => {
    try {
      const { signal, shellOnly } = JSON.parse(readFileSync(path.join(jobDir, 'signal.json'), 'utf8')) as { signal: number; shellOnly?: boolean };
      const name = Object.entries(constants.signals).find(([, n]) => n === signal)?.[0] as NodeJS.Signals | undefined;
      // The batch shell itself: the helper's child when the helper waits for it.
      if (name && shellOnly) signalPid(helper && child.pid !== undefined ? programPid(child.pid) : child.pid, name);
      else if (name) void container.signal(name).catch(() => {});
    } catch {
      // no request: nothing to send
    }
  });
  process.on('SIGINT', () => {});
  process.on('SIGHUP', () => {});

  const outcome = await exited;
  const plan = await container.orphanPlan().catch(() => ({}) as { cgroup?: string });
  const used = await usage.finish(plan.cgroup);
  // The script is gone; whatever it left behind is not (daemons, background jobs).
  const oomKills = await container.close();
  if (killTimer) clearTimeout(killTimer);
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

/** Runs `work` with the user's groups, gid and uid as the effective ones, then back to root's. */
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

/** The job's working directory, or /tmp with slurmstepd's line when the user cannot enter it. */
async function workDirFor(spec: BatchSpec, errFd: number): Promise<string> {
  const why = await cannotEnter(spec.runAs, spec.workDir);
  if (why === undefined) return spec.workDir;
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
function execStatus(message: string): number {
  if (message.includes('EACCES')) return 13 << 8;
  if (message.includes('ENOENT')) return 2 << 8;
  return 1 << 8;
}

// slurmstepd's " DUE TO ..." for each reason the controller gives (a plain cancel has none).
const DUE_TO: Partial<Record<KillRequest['cause'], string>> = {
  TIMEOUT: ' DUE TO TIME LIMIT',
  NODE_FAIL: ' DUE TO NODE FAILURE',
  REQUEUE: ' DUE TO JOB REQUEUE',
  PREEMPTED: ' DUE TO PREEMPTION',
  PREEMPT_REQUEUE: ' DUE TO PREEMPTION',
};

function readKillRequest(jobDir: string): KillRequest {
  try {
    return JSON.parse(readFileSync(path.join(jobDir, 'kill.json'), 'utf8')) as KillRequest;
  } catch {
    return { cause: 'CANCELLED', at: Math.floor(Date.now() / 1000) };
  }
}

function signalPid(pid: number | undefined, signal: NodeJS.Signals): void {
  try {
    if (pid !== undefined) process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function writeResult(file: string, result: BatchResult): void {
  writeFileAtomic(file, JSON.stringify(result), { mode: 0o666 });
}
