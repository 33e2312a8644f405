// A submission arriving at the controller (slurmctld's job_allocate for a batch job): the
// partition and its limits, the nodes, features and gres, select's TEST_ONLY to refuse what
// can never run, the dependency's jobs; then ids are taken and every new job (one per array
// task) is journaled before the answer goes back. Refusals carry Slurm's errno and text; the
// client puts "Batch job submission failed: " in front, as sbatch does.
import type { SubmitAnswer } from '../protocol/ctld-answers.js';
import { UserError } from '../core/errors.js';
import { errnoName } from '../core/errno.js';
import { INFINITE } from '../core/slurm-constants.js';
import type { PartitionConfig } from '../config/types.js';
import type { Bitstr } from '../plugin-api/records.js';
import { isUsableNodeState } from './node-states.js';
import type { JobDescriptor } from '../protocol/job-desc.js';
import type { Controller } from './controller.js';
import { newJob, type CtldJob } from './job.js';
export { newJob };
import { checkKnownToCluster } from './request-checks.js';
import { checkReservationAccess } from './reservations.js';
import { isAdministrator } from './administrators.js';
import { effectiveTimeLimit } from './job-from-desc.js';

const now = (): number => Math.floor(Date.now() / 1000);

/** A submission that passed the checks: its partition, a probe record (id 0) and the nodes it may ever use. */
export interface CheckedSubmission {
  partition: PartitionConfig;
  probe: CtldJob['record'];
  configured: Bitstr;
}

export async function submitJob(ctl: Controller, desc: JobDescriptor, testOnly: boolean): Promise<SubmitAnswer> {
  const { partition, probe, configured } = await checkSubmission(ctl, desc);
  // A dependency on a job the controller does not know is lifted, not refused (observed on
  // Slurm 22.05: `sbatch -d afterok:99999` runs at once).

  // --test-only uses up a job id, as sbatch's does (observed), though no job is created.
  if (testOnly) {
    ctl.store.checkWritable();
    const jobId = ctl.store.takeJobIds(1);
    // Journaled before the answer, as a job is: the id is never given again after a restart.
    await ctl.store.append({ t: 'next_job_id', next: jobId + 1 });
    return { jobId, willRun: await willRun(ctl, probe, configured, partition) };
  }
  // While the journal cannot be written (a full disk), no job could be kept: refused at once.
  ctl.store.checkWritable();

  const taskIds = desc.array?.taskIds ?? [undefined];
  // In memory: the jobs' journal records, fsynced before the answer, make the ids durable.
  const firstId = ctl.store.takeJobIds(taskIds.length);
  const jobs: CtldJob[] = [];
  const submitted = now();
  for (const [k, taskId] of taskIds.entries()) {
    const record = ctl.buildRecord(desc, firstId + k, partition.name, submitted);
    record.priority = desc.hold ? 0 : nextPriority(ctl, record);
    jobs.push(
      newJob(record, desc, {
        arrayJobId: taskId === undefined ? 0 : firstId,
        arrayTaskId: taskId,
        arrayMaxRunning: desc.array?.maxRunning,
        reason: desc.hold ? 'JobHeldUser' : 'None',
        dependency: desc.dependency,
        held: desc.hold ? 'user' : undefined,
      }),
    );
  }
  await ctl.addJournaled(jobs);
  return { jobId: firstId };
}

/**
 * What every new job must pass before it is accepted (batch or tsrun's): partition and limits,
 * known nodes, features and gres, -w inside the partition, and select's TEST_ONLY.
 */
export async function checkSubmission(ctl: Controller, desc: JobDescriptor): Promise<CheckedSubmission> {
  // Only an administrator may raise a job's priority (observed on 22.05: a user's --nice=-5 is
  // "Invalid --nice value", from sbatch, srun and salloc alike).
  if ((desc.nice ?? 0) < 0 && !isAdministrator(desc.userId)) throw UserError.fromErrno('ESLURM_INVALID_NICE');
  const partition = choosePartition(ctl, desc.partition);
  checkPartitionLimits(desc, partition);
  // Built with a placeholder id: ids are taken only once the job is accepted.
  const probe = ctl.buildRecord(desc, 0, partition.name, now());
  checkKnownToCluster(probe, ctl.table);
  // slurmctld's _job_create refuses a node both required and excluded (observed on Slurm 22.05:
  // `sbatch -w node1 -x node1` → Invalid node name specified).
  if (probe.details.req_node_bitmap && probe.details.exc_node_bitmap?.overlap(probe.details.req_node_bitmap)) {
    throw UserError.fromErrno('ESLURM_INVALID_NODE_NAME');
  }
  const inPartition = ctl.table.partitionBitmap(partition.name)!;
  if (probe.details.req_node_bitmap && !probe.details.req_node_bitmap.isSubsetOf(inPartition)) {
    throw UserError.fromErrno('ESLURM_REQUESTED_NODES_NOT_IN_PARTITION');
  }
  const configured = inPartition.copy();
  if (probe.details.exc_node_bitmap) configured.andNot(probe.details.exc_node_bitmap);
  // A job in a reservation may only ever use its nodes (observed on Slurm 22.05: an unknown
  // reservation is "Requested reservation is invalid", one the user is not in "Access denied").
  if (desc.reservation !== undefined) {
    configured.and(checkReservationAccess(ctl.reservations.get(desc.reservation), desc.userName, desc.userId).bits);
  }
  const ever = await ctl.select.testOnly(probe, configured);
  if (ever.nodes === undefined) throw refusal(ever.rc);
  return { partition, probe, configured };
}

/** A new job as the controller keeps it, pending, before it is added and journaled. */

function choosePartition(ctl: Controller, name: string | undefined): PartitionConfig {
  const partitions = ctl.options.config.partitions;
  if (name === undefined) {
    const fallback = partitions.find((p) => p.isDefault);
    if (!fallback) throw UserError.fromErrno('ESLURM_DEFAULT_PARTITION_NOT_SET');
    return fallback;
  }
  const named = partitions.find((p) => p.name === name);
  if (!named) throw UserError.fromErrno('ESLURM_INVALID_PARTITION_NAME');
  return named;
}

// Slurm with EnforcePartLimits=ALL: a job beyond the partition's limits is refused at submit
// rather than left pending forever (README: differences from Slurm).
function checkPartitionLimits(desc: JobDescriptor, partition: PartitionConfig): void {
  if (desc.timeLimit !== INFINITE && partition.maxTime !== INFINITE && desc.timeLimit > partition.maxTime) {
    throw UserError.fromErrno('ESLURM_INVALID_TIME_LIMIT');
  }
  if (partition.maxNodes !== INFINITE && (desc.minNodes ?? 1) > partition.maxNodes) {
    throw UserError.fromErrno('ESLURM_INVALID_NODE_COUNT');
  }
  // --time-min beyond the job's own limit (observed on 22.05: `-t 5 --time-min=10` is refused).
  const limit = effectiveTimeLimit(desc.timeLimit, partition);
  if (desc.timeMin !== undefined && limit !== INFINITE && desc.timeMin > limit) throw UserError.fromErrno('ESLURM_INVALID_TIME_MIN_LIMIT');
}

// priority/basic through the sched plugin's initial_priority: each job one below the last,
// less its --nice. The count goes on from the un-niced value (observed on 22.05: the job after
// a `--nice=100` one is still one below it before the nice), so a niced job moves only itself.
export function nextPriority(ctl: Controller, record: CtldJob['record']): number {
  const nice = record.details.nice ?? 0;
  const next = ctl.sched.initialPriority(ctl.lastPriority, record);
  ctl.lastPriority = Math.min(ctl.lastPriority, Math.max(1, next + nice));
  return next;
}

async function willRun(ctl: Controller, probe: CtldJob['record'], configured: Bitstr, partition: PartitionConfig): Promise<SubmitAnswer['willRun']> {
  const usable = configured.copy();
  for (const index of configured.setBits()) {
    if (!isUsableNodeState(ctl.table.nodes[index]!.node_state)) usable.clear(index);
  }
  const answer = await ctl.select.willRun(probe, usable);
  if (answer.nodes === undefined) throw refusal(answer.rc);
  const names = ctl.table.namesFromBitmap(answer.nodes);
  const cpus = answer.job_resources?.ncpus ?? names.reduce((sum, name) => sum + ctl.table.nodes[ctl.table.indexOf(name)!]!.cpus, 0);
  return {
    start: answer.start_time ?? Math.floor(Date.now() / 1000),
    nodes: ctl.table.hostlistFromBitmap(answer.nodes),
    cpus,
    partition: partition.name,
  };
}

export function refusal(rc: number): UserError {
  const name = errnoName(rc);
  return name ? UserError.fromErrno(name) : UserError.fromErrno('ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE');
}
