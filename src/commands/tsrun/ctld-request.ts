// A tsrun request as the controller reads a job (JobDescriptor, without a script), and the
// controller's refusals as srun prints them: "Unable to allocate resources: <why>", with
// srun's extra line for an unknown partition or memory no node has.
import { sessionId } from '../../os/session-id.js';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { ClusterConfig } from '../../config/types.js';
import { buildGresRequest } from '../../ctld/gres-request.js';
import { parseDependency } from '../../core/dependency-spec.js';
import type { JobDescriptor } from '../../protocol/job-desc.js';
import { jobDescriptor } from '../../protocol/job-desc-defaults.js';
import type { StepRequest } from './request.js';
import { submitLine } from '../../cli/submit-line.js';

export function jobDescFor(req: StepRequest): JobDescriptor {
  // srun checks gres itself, before asking for an allocation (its own message, no prefix).
  buildGresRequest({ gres: req.gres, gpus: req.gpus, gpusPerNode: req.extras.gpusPerNode, gpusPerTask: req.extras.gpusPerTask });
  const user = os.userInfo();
  return jobDescriptor({
    argv: req.command.slice(1),
    // scontrol's Command= for an srun job: the program as given (observed on Slurm 22.05).
    command: req.command[0],
    // srun's default job name is the program's base name (observed: `srun /usr/bin/env` → env).
    name: req.jobName ?? path.basename(req.command[0] ?? 'tsrun'),
    partition: req.partition,
    ...(req.reservation !== undefined && { reservation: req.reservation }),
    ntasks: req.ntasks ?? (req.ntasksPerNode ?? 1) * Math.max(req.minNodes ?? 1, 1),
    minNodes: req.minNodes,
    maxNodes: req.maxNodes,
    cpusPerTask: req.cpusPerTaskGiven ? req.cpusPerTask : undefined,
    ntasksPerNode: req.ntasksPerNode,
    memPerNode: req.memPerNode,
    memPerCpu: req.memPerCpu,
    nodelist: req.nodelist,
    exclude: req.exclude,
    constraint: req.constraint,
    gres: req.gres,
    gpus: req.gpus,
    exclusive: req.exclusive,
    overcommit: req.overcommit,
    timeLimit: req.timeLimit,
    workDir: path.resolve(req.chdir ?? process.cwd()),
    exportText: req.export,
    // srun -d: the controller checks it as sbatch's ("Job dependency problem").
    dependency: req.dependency === undefined ? undefined : parseDependency(req.dependency),
    hold: req.hold,
    interactive: { pid: process.pid, ownStep: true },
    ...req.extras,
    // --uid/--gid (root only): the job is that user's; the controller takes it from root.
    userId: req.runAs?.uid ?? user.uid,
    groupId: req.runAs?.gid ?? user.gid,
    userName: req.runAs?.name ?? user.username,
    submitHost: os.hostname(),
    submitSid: sessionId(),
    submitLine: submitLine(),
    submitDir: process.cwd(),
  });
}

/** A refusal from the controller, worded as srun words the controller's answer. */
export function allocateRefusal(error: unknown, req: StepRequest, config: ClusterConfig, log: Logger): unknown {
  if (!(error instanceof UserError) || error.code === undefined || error.code === 'SLURM_ERROR') return error;
  // gres is srun's own check: its message has no prefix.
  if (error.code === 'ESLURM_INVALID_GRES') return error;
  // srun prints both lines (observed on Slurm 22.05).
  if (error.code === 'ESLURM_INVALID_PARTITION_NAME') log.error(`invalid partition specified: ${req.partition}`);
  if (error.code === 'ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE' && memoryBeyondEveryNode(req, config)) {
    log.error('Memory specification can not be satisfied');
  }
  if (error.code === 'ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE' && beyondEveryNode(req, config, (n) => n.tmpDisk ?? 0, req.extras.tmpDisk)) {
    log.error('Temporary disk specification can not be satisfied');
  }
  return new UserError(`Unable to allocate resources: ${error.message}`, { code: error.code, exitCode: error.exitCode });
}

/** Whether no node of the partition has `wanted` of what `size` measures. */
function beyondEveryNode(req: StepRequest, config: ClusterConfig, size: (node: ClusterConfig['nodes'][number]) => number, wanted: number | undefined): boolean {
  if (!wanted) return false;
  const partition = config.partitions.find((p) => (req.partition === undefined ? p.isDefault : p.name === req.partition));
  const names = new Set(partition?.nodes ?? []);
  return wanted > Math.max(0, ...config.nodes.filter((node) => names.has(node.name)).map(size));
}

/** srun's extra line: no node of the partition has the memory asked for per node. */
function memoryBeyondEveryNode(req: StepRequest, config: ClusterConfig): boolean {
  const perNode = req.memPerNode ?? (req.memPerCpu ?? 0) * req.cpusPerTask;
  if (perNode === 0) return false;
  const partition = config.partitions.find((p) => (req.partition === undefined ? p.isDefault : p.name === req.partition));
  const names = new Set(partition?.nodes ?? []);
  const memories = config.nodes.filter((node) => names.has(node.name)).map((node) => node.realMemory);
  return perNode > Math.max(0, ...memories);
}
