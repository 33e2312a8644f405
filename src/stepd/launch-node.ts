// One node's share of a step, as slurmstepd runs it (DESIGN.md §3 step 5): the job and step
// containers (step-container.ts), the mpi prefork hook once, then per task its env, the mpi
// task hook, container_p_join and the real process, put into both containers. The same code
// serves every step host: the embedded one and tsstepd daemons (step-runner.ts, on a `launch` request).
import { createReadStream } from 'node:fs';
import type { Writable } from 'node:stream';
import type { ContainerTask } from '../plugin-api/job-container.js';
import type { MpiStepInfo, MpiStepLayout, MpiTaskInfo, MpiTaskLaunch } from '../plugin-api/mpi.js';
import type { ProctrackOrphanPlan } from '../plugin-api/proctrack.js';
import type { NodeLaunchSpec } from './launch-spec.js';
import { finishTaskEnv, nodeEnv, taskEnv } from './task-env.js';
import { startingWithTaskPid, taskExecHelper } from './task-pid.js';
import { onPty } from './pty-helper.js';
import { stepEnvOver } from './step-env.js';
import { childGone } from '../os/spawn.js';
import { signalTaskGroup, spawnTask, taskNotStarted, type SpawnArgv, type SpawnedTask, type TaskOutcome } from './spawn-task.js';
import { prologSignalled, runTaskEpilogs, runTaskPrologs, type PrologFailure, type TaskScriptContext } from './task-scripts.js';
import { stepDebug } from './step-debug.js';
import { formatSlurmDate } from '../core/time-string.js';
import { constants } from 'node:os';
import { StepContainer, type StepdPlugins } from './step-container.js';
import { compressHostlist } from '../core/hostlist.js';
import { execFailure, type TaskExit } from '../core/exit-status.js';
import { oomEventsMessage } from '../core/oom.js';
import { argvAsUser, cannotEnter, execProblem } from './run-as.js';
import { NodeUsageGatherer } from './usage/node-gatherer.js';
import type { NodeUsage } from '../protocol/step-usage.js';
import { DEFAULT_ACCT_GATHER_SECONDS } from '../config/acct-gather.js';

/** Where a node's task output and daemon messages go (the I/O connection to tsrun). */
export interface NodeIoSink {
  stdout(taskId: number, chunk: Buffer): void;
  stderr(taskId: number, chunk: Buffer): void;
  /**
   * A message of the step daemon itself, e.g. `tsstepd-node1: error: execve(): ...`; `taskId`:
   * the task whose stderr it is on Slurm (srun -l labels it so): the task's own for what its
   * forked process prints (an exec failure, its prolog's failure), the node's first task's for
   * slurmstepd's own lines.
   */
  daemonError(line: string, taskId?: number): void;
  /** A task's process started; it leads its own process group (pgid = pid). */
  taskStarted?(pid: number): void;
  /**
   * The step's container on this node exists (`plan`: how the reaper finds its processes
   * besides the tasks' groups), or, with `open` false, is empty and gone.
   */
  container?(plan: ProctrackOrphanPlan, open: boolean): void;
  /**
   * The node's step can be signalled from now on (its container exists), before its tasks
   * start: a TaskProlog that hangs is ended by the step's signals (scancel), as in slurmstepd.
   */
  signalReady?(signal: (sig: NodeJS.Signals) => void): void;
  /** A task's process ended (its output may still be draining). */
  taskExited?(exit: TaskExit): void;
  /**
   * The mpi plugin asked to end the whole step (`abort_step`): tsrun kills every task of every
   * node. Without it, this node kills its own tasks.
   */
  abortStep?(message: string, error: boolean): void;
  /**
   * What the node's tasks used: a live sample every JobAcctGatherFrequency seconds, then
   * (`final`) the figures at their end, once every task has ended and before `done` resolves.
   */
  usage?(usage: NodeUsage, final: boolean): void;
}

export type { TaskExit };

export interface NodeStep {
  /** The stdin of a task on this node, when it reads tsrun's stdin. */
  stdin(taskId: number): Writable | undefined;
  /** Signal every process of the step on this node (proctrack_p_signal on its container). */
  signal(signal: NodeJS.Signals): void;
  /**
   * Resolves when every task ended, the step's container is empty and their output drained,
   * with the tasks' final exits: marked `outOfMemory` when the step had an oom kill here.
   */
  done: Promise<TaskExit[]>;
}

export async function launchNode(spec: NodeLaunchSpec, plugins: StepdPlugins, sink: NodeIoSink): Promise<NodeStep> {
  const { step, nodeId } = spec;
  const { mpi } = plugins;
  const nodeName = step.nodeNames[nodeId]!;
  const tids = step.tids[nodeId] ?? [];
  const layout: MpiStepLayout = {
    node_cnt: step.nodeNames.length,
    node_list: compressHostlist(step.nodeNames),
    node_names: step.nodeNames,
    task_cnt: step.ntasks,
    tasks: step.tasksPerNode,
    tids: step.tids,
    task_dist: step.taskDist,
  };
  const stepDone = new AbortController();
  const gatherer = new NodeUsageGatherer(nodeName, step.acctGatherFrequency ?? DEFAULT_ACCT_GATHER_SECONDS, (usage) => sink.usage?.(usage, false));
  const tasks: Array<{ taskId: number; spawned: SpawnedTask; epilogEnv: readonly string[] }> = [];
  // slurmstepd's own stderr is the node's first task's.
  const report = (error: unknown): void =>
    sink.daemonError(`tsstepd-${nodeName}: error: ${error instanceof Error ? error.message : String(error)}`, tids[0]);
  // One signal after the other, in the order asked: a SIGINT then SIGKILL (a double Ctrl-C)
  // must reach the tasks in that order, so that they end by the first (srun's 130).
  // Once the container is closed there is nothing left to signal on this node.
  let signalling: Promise<void> = Promise.resolve();
  let closed = false;
  const signal = (sig: NodeJS.Signals): void => {
    signalling = signalling.then(() => (closed ? undefined : container.signal(sig))).catch(report);
  };
  const abortStep = (message: string, error = false): void => {
    if (sink.abortStep) return sink.abortStep(message, error);
    report(message);
    signal('SIGKILL');
  };

  const debug = stepDebug(step.slurmdDebug, `tsstepd-${nodeName}`, (line) => sink.daemonError(line));
  debug.debug(`IO handler started pid=${process.pid}`);
  const env = nodeEnv(spec);
  // Before the env is copied for each task: proctrack_p_create may add a variable to it.
  const ids = { jobId: step.jobId, stepId: step.stepId, nodeName, stepMem: spec.memLimitMb, owner: spec.runAs };
  const { cwd, cwdError } = await cwdFor(spec, report);
  const container = await StepContainer.open(plugins, ids, stepEnvOver(env));
  const plan = await container.orphanPlan().catch((error: unknown) => (report(error), {}));
  sink.container?.(plan, true);
  sink.signalReady?.(signal);
  const stepInfo: MpiStepInfo = {
    jobid: step.jobId,
    stepid: step.stepId,
    nnodes: step.nodeNames.length,
    ntasks: step.ntasks,
    nodeid: nodeId,
    node_name: nodeName,
    ltasks: tids.length,
    gtids: tids,
    step_layout: layout,
    step_done: stepDone.signal,
    abort_step: abortStep,
  };

  const taskScriptContext = (taskId: number, dir: string): TaskScriptContext => ({
    container,
    runAs: spec.runAs,
    cwd: dir,
    report: (line) => sink.daemonError(`tsstepd-${nodeName}: error: ${line}`, taskId),
    reportDaemon: (line) => sink.daemonError(`tsstepd-${nodeName}: error: ${line}`, tids[0] ?? taskId),
    stdout: (chunk) => sink.stdout(taskId, chunk),
    stderr: (chunk) => sink.stderr(taskId, chunk),
    // slurmstepd's own stderr is the node's first task's.
    daemonStderr: (chunk) => sink.stderr(tids[0] ?? taskId, chunk),
  });
  // slurm.conf's scripts, then the user's (--task-prolog); the epilogs the other way round.
  const prologs = { slurm: step.confTaskProlog, user: step.taskProlog };
  const epilogs = { slurm: step.confTaskEpilog, user: step.taskEpilog };

  // The submitter's umask and soft limits (--propagate), set by the task exec helper in the
  // task's process, after it became the user, as slurmstepd sets them before its exec.
  const submitterSettings = ['--umask', step.umask, ...(step.rlimits ?? []).flatMap((limit) => ['--rlimit', limit])];

  // proctrack_g_add and the job container's adds come once every task is spawned, task after
  // task, as slurmstepd's _fork_all_tasks forks all before it adds them: a task's spawn no
  // longer waits for the previous one's add (proctrack/cgroup's waits on the kernel's cgroup
  // lock, which that task's own join holds). All are done before the node's launch is
  // answered, so a signal to the step finds every task.
  // A task's wiring once its process runs (tasks[localId]: in the node's order).
  const started = (localId: number, taskId: number, spawned: SpawnedTask, launch: MpiTaskLaunch | void, epilogEnv: string[]): void => {
    tasks[localId] = { taskId, spawned, epilogEnv };
    // Sampled from /proc (and the step cgroup's counters), with the final rusage its spawn
    // server's wait4 reports: the task is the server's child, so its exit, and the order in
    // which signals end it, are the program's own (see usage/).
    gatherer.add(taskId, spawned.child.pid, spawned.rusage, false);
    if (spawned.child.pid !== undefined) {
      sink.taskStarted?.(spawned.child.pid);
      startedLines.say(localId, `task ${taskId} (${spawned.child.pid}) started ${formatSlurmDate(Math.floor(Date.now() / 1000))}`);
    } else startedLines.say(localId);
    spawned.child.stdout?.on('data', (chunk: Buffer) => sink.stdout(taskId, chunk));
    spawned.child.stderr?.on('data', (chunk: Buffer) => sink.stderr(taskId, chunk));
    spawned.child.stdin?.on('error', () => {}); // a task that exits without reading its stdin is not an error
    const stdinFile = typeof spec.stdin === 'object' ? spec.stdin.files[localId] : undefined;
    if (stdinFile !== undefined && spawned.child.stdin) {
      createReadStream(stdinFile).on('error', () => spawned.child.stdin?.end()).pipe(spawned.child.stdin);
    } else if (!readsStdin(spec.stdin, taskId)) spawned.child.stdin?.end();
    // The plugin's ends of its pipes (the PMI socket); nobody else would read or close them.
    if (launch?.attach) launch.attach(spawned.pipes);
    else spawned.pipes.forEach((end) => end.destroy());
    const { exited } = launch ?? {};
    if (exited) void spawned.exit.then(() => exited()).catch(report);
    // Every stream of the task is wired synchronously after its spawn, before any yield.
  };
  // The tasks whose processes are starting.
  const starting: Promise<void>[] = [];
  // slurmstepd forks the tasks one after another, so its `started` lines come in task order;
  // here the spawns overlap and may be answered out of order under load.
  const startedLines = inTaskOrder((line) => debug.verbose(line));
  // A signal ended a task's prolog: the later tasks' prologs are taken as ended by it too.
  let prologsSignalled = false;
  debug.verbose(`starting ${tids.length} tasks`);
  try {
    await mpi.stepdPrefork(stepInfo, stepEnvOver(env));
    for (const [localId, taskId] of tids.entries()) {
      const envForTask = taskEnv(env, taskId, localId);
      const taskInfo: MpiTaskInfo = {
        jobid: step.jobId,
        stepid: step.stepId,
        nnodes: step.nodeNames.length,
        nodeid: nodeId,
        node_name: nodeName,
        ntasks: step.ntasks,
        ltasks: tids.length,
        gtaskid: taskId,
        ltaskid: localId,
      };
      const launch = await mpi.stepdTask(taskInfo, stepEnvOver(envForTask));
      const stdinKind = spec.stdin === 'none' ? 'ignore' : 'pipe';
      // The epilogs see the task's variables as they were before its prologs changed them.
      const epilogEnv = [...envForTask];
      // Each task's forked child tries the step's directory again, with slurmstepd's line when it
      // too fails (before its prolog): `-n2` prints the line three times on one node.
      if (cwdError !== undefined) report(chdirLine(spec.cwd, cwdError));
      const scriptContext = taskScriptContext(taskId, cwd);
      const prologFailed: PrologFailure | undefined = prologsSignalled ? prologSignalled(prologs, scriptContext) : await runTaskPrologs(prologs, envForTask, scriptContext);
      if (prologFailed !== undefined) {
        prologsSignalled ||= prologFailed.signalled;
        tasks[localId] = { taskId, spawned: taskNotStarted(prologFailed.status), epilogEnv };
        startedLines.say(localId);
        if (launch?.attach) launch.attach([]);
        if (launch?.exited) await Promise.resolve(launch.exited()).catch(report);
        continue;
      }
      finishTaskEnv(envForTask);
      const withPid = startingWithTaskPid([...(spec.argv[localId] ?? spec.argv[0]!)], envForTask, cwd, spec.runAs, submitterSettings);
      // srun --pty: task 0 on a pseudo-terminal, through the pty helper (tsrun checked it is built).
      const program = step.pty && taskId === 0 ? onPty(step.pty, withPid) : withPid;
      // As the user: setpriv first, so the plugins' wrappers (run as root) exec it last.
      const joined: ContainerTask = {
        argv: spec.runAs ? argvAsUser(spec.runAs, program) : [...program],
        env: stepEnvOver(envForTask),
        cwd,
        ...withTaskExec(),
      };
      const { containerWrapped } = await container.join(joined);
      // The job's container may hide the directory (job_container/tmpfs's private /tmp): only the
      // task's child, inside it, fails then, so once a task (Slurm: `/tmp/xyzdir`, /work/ref/tmpfs.txt).
      if (joined.cwdError !== undefined) report(chdirLine(cwd, joined.cwdError));
      const spawnCwd = joined.cwd ?? cwd;
      const command = containerWrapped ? joined.argv : asSpawned(spec, joined.argv, program, envForTask, spawnCwd);
      // The next task is prepared while this one starts (the spawn server forks it).
      const wired = spawnTask(command, envForTask, spawnCwd, launch?.fds ?? [], stdinKind, launch?.pipes ?? 0).then((spawned) =>
        started(localId, taskId, spawned, launch, epilogEnv),
      );
      wired.catch(() => {}); // seen by Promise.all below, after the loop, not unhandled meanwhile
      starting.push(wired);
    }
    await Promise.all(starting);
    for (const { spawned } of tasks) {
      const { child } = spawned;
      if (child.pid !== undefined) await container.adopt(child.pid, () => childGone(child));
    }
  } catch (error) {
    // A hook failed half-way through the node's tasks: those already started must not outlive
    // it, including one that proctrack_p_add could not take (hence the group kill as well).
    await Promise.allSettled(starting);
    for (const task of tasks) if (task) signalTaskGroup(task.spawned.child, 'SIGKILL');
    await container.close().catch(report);
    stepDone.abort();
    throw error;
  }

  // The first live sample comes a moment into the step, not as its tasks start: most of a short
  // step's tasks have ended by then, and its figures come from the spawn server's wait4 rusage;
  // taken at the start, the sample's reads of /proc (three files per task, each through the
  // thread pool) competed with the tasks' exits for the host's event loop and the machine's
  // CPUs, on the way to the step's end (tssstat's live figure waits this long for a step).
  gatherer.start(FIRST_SAMPLE_MS);
  let oomReported = false;
  const done = (async (): Promise<TaskExit[]> => {
    const exits = await Promise.all(
      tasks.map(async ({ taskId, spawned, epilogEnv }, i) => {
        const outcome = await spawned.exit;
        const pid = spawned.child.pid ?? 0;
        if (outcome.kind === 'exited') debug.verbose(`task ${taskId} (${pid}) exited with exit code ${outcome.code}.`);
        if (outcome.kind === 'signaled') debug.verbose(`task ${taskId} (${pid}) exited. Killed by signal ${constants.signals[outcome.signal] ?? 0}.`);
        // slurmstepd runs the task epilog before it reports the task's exit.
        await runTaskEpilogs(epilogs, epilogEnv, taskScriptContext(taskId, cwd)).catch(report);
        const exit = toTaskExit(taskId, nodeName, outcome, spec.argv[i] ?? spec.argv[0]!, sink);
        // A task the oom killer ended is reported so as it ends (slurmstepd's SIG_OOM), since
        // tsrun prints its line then; the step's end marks the node's other tasks too.
        if (outcome.kind === 'signaled' && outcome.signal === 'SIGKILL') {
          const kills = await container.oomKills().catch(() => 0);
          if (kills > 0) {
            // slurmstepd's line comes before the task's exit reaches srun.
            if (!oomReported) report(oomEventsMessage(kills, `${step.jobId}.${step.stepId}`));
            oomReported = true;
            exit.outOfMemory = true;
          }
        }
        sink.taskExited?.(exit);
        return exit;
      }),
    );
    // The step ends only when its container is empty: what the tasks left running (daemons,
    // grandchildren) is killed now, as slurmstepd kills the step's container and waits. Each
    // task leads its own group, so the groups are killed too: a task that ended before
    // proctrack_p_add could see it may have left children there.
    // The step cgroup's counters, before the container (and its directory) goes.
    await gatherer.readCgroup('cgroup' in plan ? plan.cgroup : undefined).catch(() => {});
    for (const { spawned } of tasks) signalTaskGroup(spawned.child, 'SIGKILL');
    await signalling;
    closed = true;
    const oomKills = await container.close().catch((error: unknown) => (report(error), 0));
    sink.container?.(plan, false);
    // The kill sequence has run: what still holds the tasks' output escaped the container
    // (a setsid daemon under proctrack/pgid). Its output is not waited for beyond a drain.
    debug.debug('Waiting for IO');
    await drainOutput(tasks.map((t) => t.spawned));
    debug.debug('Closing debug channel');
    stepDone.abort();
    sink.usage?.(await gatherer.finish(), true);
    if (oomKills === 0) return exits;
    // slurmstepd's line, then every task of this node reported as SIG_OOM (mgr.c _send_exit_msg).
    if (!oomReported) report(oomEventsMessage(oomKills, `${step.jobId}.${step.stepId}`));
    return exits.map((exit) => ({ ...exit, outOfMemory: true }));
  })();

  return {
    stdin: (taskId) => (readsStdin(spec.stdin, taskId) ? (tasks.find((t) => t.taskId === taskId)?.spawned.child.stdin ?? undefined) : undefined),
    signal,
    done,
  };
}

/** How long a step's tasks run before their first live usage sample (as a batch script's). */
const FIRST_SAMPLE_MS = 1000;

/** How long output still in flight is read once the step's container is empty. */
const DRAIN_MS = 500;

async function drainOutput(tasks: readonly SpawnedTask[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), DRAIN_MS)));
  const closed = await Promise.race([Promise.all(tasks.map((t) => t.closed)), late]);
  clearTimeout(timer);
  if (closed !== 'late') return;
  for (const { child } of tasks) {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
}

/**
 * The directory the tasks start in: the step's, or /tmp when the user cannot enter it (missing,
 * not a directory, forbidden), with slurmstepd's error line for the node, as slurmstepd prints
 * it as the user before forking the tasks (each task's child prints it again: the caller);
 * observed on Slurm 22.05, /work/ref/srun-chdir-missing.txt: `srun -D /nonexistent/dir pwd`
 * prints /tmp. `cwdError`: why the step's directory could not be entered.
 */
async function cwdFor(spec: NodeLaunchSpec, report: (error: unknown) => void): Promise<{ cwd: string; cwdError?: string }> {
  const why = await cannotEnter(spec.runAs, spec.cwd);
  if (why === undefined) return { cwd: spec.cwd };
  report(chdirLine(spec.cwd, why));
  return { cwd: '/tmp', cwdError: why };
}

function chdirLine(dir: string, why: string): string {
  return `couldn't chdir to \`${dir}': ${why}: going to /tmp instead`;
}

/**
 * What to spawn when no job container wrapped the task. A program that cannot be executed (it
 * does not exist, or the user may not run it) is spawned bare, by Node itself with the user's
 * uid and gid when it runs as a user: execve then fails with its own errno, reported as
 * slurmstepd reports it, instead of a wrapper's (setpriv's, proctrack's join) message. Nothing
 * runs then, so nothing needs a container, and it never runs as root for a user.
 */
function asSpawned(spec: NodeLaunchSpec, argv: string[], program: string[], env: readonly string[], cwd: string): SpawnArgv {
  const who = spec.runAs;
  if (argv.length === program.length) return argv;
  const pathVar = env.find((entry) => entry.startsWith('PATH='))?.slice(5);
  if (execProblem(who, program[0]!, cwd, pathVar) === undefined) return argv;
  return who ? { argv: program, uid: who.uid, gid: who.gid } : program;
}

/** The helper the plugins' join wrappers may use instead of a shell (ContainerTask.taskExec). */
function withTaskExec(): { taskExec?: string } {
  const taskExec = taskExecHelper();
  return taskExec === undefined ? {} : { taskExec };
}

function readsStdin(mode: NodeLaunchSpec['stdin'], taskId: number): boolean {
  return mode === 'all' || mode === taskId;
}

function toTaskExit(taskId: number, nodeName: string, outcome: TaskOutcome, argv: readonly string[], sink: NodeIoSink): TaskExit {
  if (outcome.kind === 'exited') return { taskId, nodeName, exitCode: outcome.code, signal: null };
  if (outcome.kind === 'signaled') return { taskId, nodeName, exitCode: null, signal: outcome.signal };
  // slurmstepd's forked child reports the failed execve and exits with its errno.
  const failure = execFailure(argv[0]!, outcome.errno);
  sink.daemonError(`tsstepd-${nodeName}: ${failure.message}`, taskId);
  return { taskId, nodeName, exitCode: failure.exitCode, signal: null };
}

/**
 * Says lines given by local task index in that order: line i once every line before it was
 * given (`say(i)` without a line: task i has none, as one whose prolog failed).
 */
function inTaskOrder(print: (line: string) => void): { say(localId: number, line?: string): void } {
  const given: Array<string | null> = [];
  let next = 0;
  return {
    say(localId, line) {
      given[localId] = line ?? null;
      for (; given[next] !== undefined; next++) if (given[next] !== null) print(given[next]!);
    },
  };
}
