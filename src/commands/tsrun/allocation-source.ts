// The allocation a step runs in: a new job from the controller (the cluster's, or the one
// serving the state directory, started on demand), or — when tsrun runs inside a job
// (SLURM_JOB_ID set, as in a batch script) — a new step of that job on its nodes.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { compressHostlist, expandHostlist } from '../../core/hostlist.js';
import { expandCounts } from '../../core/tasks-per-node.js';
import { INFINITE } from '../../core/slurm-constants.js';
import type { Logger } from '../../core/log.js';
import type { ClusterConfig } from '../../config/types.js';
import { takeNextStepId } from '../../ctld/id-counters.js';
import type { CtldTarget } from '../../client/ctld-client.js';
import { remoteController } from '../../client/controller-target.js';
import type { StepRequest } from './request.js';
import { CtldClient } from '../../client/ctld-client.js';
import { isFinished } from '../../core/job-state.js';
import { slurm_strerror } from '../../core/errno.js';
import type { JobView } from '../../protocol/job-view.js';
import type { StepAllocation, StepControl } from './step-allocation.js';

/**
 * `onAsked`: called once a new job's allocation has been asked for, as the controller works on
 * it (tsrun prepares its launch meanwhile, without delaying the request), or once the
 * controller has to be started first, or at once for a step of an enclosing job; it may be
 * called more than once.
 */
export async function resolveAllocation(req: StepRequest, config: ClusterConfig, log: Logger, stateDir: string, onAsked?: () => void): Promise<StepAllocation> {
  const remote = await remoteController(config);
  const socketPath = path.join(stateDir, 'tsctld.sock');
  // A step of an enclosing job (or --jobid) registers with the controller only when one runs:
  // the socket's presence is checked, no controller is started for it.
  const running: CtldTarget | undefined = remote ?? (existsSync(socketPath) ? socketPath : undefined);
  // --jobid: a step in that job, as if tsrun ran inside it (its variables reach the tasks).
  if (req.jobId !== undefined) await enterJob(req.jobId, running, log);
  const enclosing = process.env.SLURM_JOB_ID ?? process.env.SLURM_JOBID;
  if (enclosing !== undefined && enclosing !== '') {
    onAsked?.();
    return stepOfEnclosingJob(req, enclosing, stateDir, running, log);
  }

  // A new job is always the controller's (DESIGN.md §2, one controller core): the cluster's
  // TCP controller, else the one serving this state directory, started on demand when none
  // does (as tsbatch starts it). --test-only leaves nothing running that it had to start.
  const { allocateThroughController, openController } = await import('./ctld-allocation.js');
  const opened = await openController(config, stateDir, remote, onAsked);
  try {
    const alloc = await allocateThroughController(opened.client, opened.reopen, req, config, log, onAsked);
    return { ...alloc, controller: opened.target };
  } finally {
    if (opened.startedHere && req.testOnly) await opened.stop();
  }
}

/**
 * srun --jobid=N: the job's nodes and CPUs from the controller, set as a batch script's
 * environment would have them. A job that is not running gets srun's two lines (observed).
 */
async function enterJob(jobId: number, target: CtldTarget | undefined, log: Logger): Promise<void> {
  let view: JobView | undefined;
  if (target !== undefined) {
    const client = await CtldClient.open(target).catch(() => undefined);
    view = (await client?.call<JobView[]>('jobs', { ids: [String(jobId)] }).catch(() => []))?.[0];
    client?.close();
  }
  if (view === undefined || view.nodes === null || isFinished(view.state)) {
    log.error(`Unable to confirm allocation for job ${jobId}: ${slurm_strerror('ESLURM_INVALID_JOB_ID')}`);
    log.info(`Check SLURM_JOB_ID environment variable. Expired or invalid job ${jobId}`);
    throw new UserError('', { bare: true, code: 'ESLURM_INVALID_JOB_ID' });
  }
  const nodes = expandHostlist(view.nodes);
  const perNode = Math.max(1, Math.floor(view.numCpus / nodes.length));
  Object.assign(process.env, {
    SLURM_JOB_ID: String(jobId),
    SLURM_JOBID: String(jobId),
    SLURM_JOB_NODELIST: view.nodes,
    SLURM_JOB_NUM_NODES: String(nodes.length),
    SLURM_JOB_CPUS_PER_NODE: nodes.length > 1 ? `${perNode}(x${nodes.length})` : String(perNode),
    SLURM_JOB_NAME: view.name,
    SLURM_JOB_PARTITION: view.partition,
  });
}

async function stepOfEnclosingJob(req: StepRequest, jobIdText: string, stateDir: string, target: CtldTarget | undefined, log: Logger): Promise<StepAllocation> {
  const jobId = Number.parseInt(jobIdText, 10);
  const nodelist = process.env.SLURM_JOB_NODELIST ?? process.env.SLURM_NODELIST;
  if (!Number.isSafeInteger(jobId) || !nodelist) {
    throw UserError.fromErrno('ESLURM_INVALID_JOB_ID', 'Unable to create step for job');
  }
  const jobNodes = expandHostlist(nodelist);
  const jobCpus = expandCounts(process.env.SLURM_JOB_CPUS_PER_NODE ?? jobNodes.map(() => 1).join(','));
  // srun trims -N (often SLURM_NNODES, inherited from the job) to the task count (observed).
  if (req.ntasks !== undefined && req.minNodes !== undefined && req.ntasks < req.minNodes) {
    log.info(`Warning: can't run ${req.ntasks} processes on ${req.minNodes} nodes, setting nnodes to ${req.ntasks}`);
    req = { ...req, minNodes: req.ntasks };
  }
  const chosen = chooseStepNodes(req, jobNodes, jobCpus, jobId);
  const step: StepAllocation = {
    jobId,
    stepId: takeNextStepId(stateDir, jobId),
    jobName: process.env.SLURM_JOB_NAME ?? req.jobName ?? req.command[0] ?? 'tsrun',
    partition: process.env.SLURM_JOB_PARTITION ?? '',
    nodeNames: chosen.map((i) => jobNodes[i]!),
    cpusPerNode: chosen.map((i) => jobCpus[i] ?? 1),
    gpusPerNode: chosen.map(() => []),
    job: { nodeNames: jobNodes, cpusPerNode: jobCpus },
    timeLimit: INFINITE,
    ownJob: false,
    release: async () => {},
  };
  // As for the allocation path: only the socket's presence is checked when no controller runs.
  if (target === undefined || req.testOnly) return step;
  const { registerStep } = await import('./ctld-step.js');
  const ntasks = req.ntasks ?? (req.ntasksPerNode ?? 1) * (req.minNodes ?? step.nodeNames.length);
  const registered = await registerStep(target, {
    jobId,
    stepId: step.stepId,
    // Inside a job srun names the step after its program (scontrol's Name=), not the job's
    // name it finds in SLURM_JOB_NAME; -J names it.
    name: (req.jobName !== process.env.SLURM_JOB_NAME ? req.jobName : undefined) ?? path.basename(req.command[0] ?? 'tsrun'),
    nodes: compressHostlist(step.nodeNames),
    nodeCount: step.nodeNames.length,
    ntasks,
    cpus: ntasks * req.cpusPerTask,
    timeLimit: req.timeLimit,
    dist: distWord(req),
    host: os.hostname().split('.')[0]!,
    pid: process.pid,
    ask: {
      cpusPerTask: req.cpusPerTask,
      exact: req.exact,
      overlap: req.overlap,
      overcommit: req.overcommit,
      ...(req.minNodes !== undefined && { nodeCount: req.minNodes }),
      ...(req.nodelist !== undefined && { nodelist: req.nodelist }),
    },
  }, log);
  if (!registered) return step;
  const { grant, ...control } = registered;
  // Where the controller placed the step, and the CPUs it holds there (SLURM_CPUS_ON_NODE).
  const placed = grant.nodes !== undefined && grant.cpus !== undefined ? { nodeNames: expandHostlist(grant.nodes), cpusPerNode: grant.cpus } : {};
  return { ...step, ...placed, ...control, controller: target };
}

/** scontrol's Dist= for a step: Cyclic unless -m chose otherwise (observed on Slurm 22.05). */
function distWord(req: StepRequest): string {
  const node = req.distribution?.node ?? 'cyclic';
  return node[0]!.toUpperCase() + node.slice(1);
}

/** Step nodes inside a job: -w if given, else -N nodes, else as few as the tasks' CPUs need. */
function chooseStepNodes(req: StepRequest, nodes: readonly string[], cpus: readonly number[], jobId: number): number[] {
  const unavailable = (): UserError =>
    UserError.fromErrno('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE', `Unable to create step for job ${jobId}`);
  if (req.nodelist !== undefined) {
    const wanted = new Set(expandHostlist(req.nodelist));
    const indices = nodes.flatMap((name, i) => (wanted.has(name) ? [i] : []));
    if (indices.length !== wanted.size) throw unavailable();
    return indices;
  }
  const all = nodes.map((_, i) => i);
  if (req.minNodes !== undefined) {
    if (req.minNodes > nodes.length) throw unavailable();
    return all.slice(0, req.minNodes);
  }
  const needed = req.overcommit ? 1 : (req.ntasks ?? 1) * req.cpusPerTask;
  let have = 0;
  for (const [i, n] of cpus.entries()) {
    have += n;
    if (have >= needed) return all.slice(0, i + 1);
  }
  return all;
}
