// A job as Slurm 22.05's data_parser writes it for `squeue --json` (openapi v0.0.38), key
// order and value forms observed there: times in Unix seconds, an unlimited time limit as
// null, strings Slurm has none for as "". As for nodes (data-parser.ts), only keys tslurm has
// a real value for are written: no accounting, federation or burst-buffer keys.
import { groupNameForGid } from '../../os/groups.js';
import { jobStateString } from '../../core/job-state.js';
import { INFINITE } from '../../core/slurm-constants.js';
import type { SqueueRecord } from './squeue-records.js';
import { gresTres, minCpus, nodeList, numTasks, taskString } from './squeue-values.js';

// slurmctld gives a job without a time limit an end one year after its start.
const YEAR_SECONDS = 365 * 86_400;

export function jobToData(rec: SqueueRecord, cluster: string): Record<string, unknown> {
  const { job } = rec;
  const inArray = job.arrayJobId !== 0;
  const endTime = job.endTime === INFINITE ? job.startTime + YEAR_SECONDS : job.endTime;
  return {
    array_job_id: job.arrayJobId,
    array_task_id: inArray && rec.tasks === null ? job.arrayTaskId : null,
    array_max_tasks: rec.tasks !== null ? (rec.taskLimit ?? 0) : 0,
    array_task_string: taskString(rec) ?? '',
    batch_flag: true,
    batch_host: job.batchHost ?? '',
    cluster,
    command: job.command,
    comment: job.comment ?? '',
    contiguous: job.contiguous,
    cpus_per_task: job.cpusPerTask,
    dependency: job.dependency ?? '',
    // The highest wait status of its steps, raw as 22.05 prints it (observed: 1024 for a step
    // that exited 4 in a batch job that exited 0).
    derived_exit_code: job.derivedExitStatus ?? 0,
    eligible_time: job.eligibleTime,
    end_time: endTime,
    excluded_nodes: job.excNodes ?? '',
    exit_code: job.exitStatus,
    features: job.features ?? '',
    group_id: job.groupId,
    group_name: groupNameForGid(job.groupId) ?? String(job.groupId),
    job_id: job.jobId,
    job_state: jobStateString(job.state),
    name: job.name,
    nodes: nodeList(job.nodes),
    tasks_per_node: job.ntasksPerNode ?? 0,
    cpus: job.numCpus,
    node_count: job.numNodes,
    tasks: numTasks(job),
    partition: job.partition,
    memory_per_node: job.memPerNode,
    memory_per_cpu: job.memPerCpu,
    minimum_cpus_per_node: minCpus(job),
    priority: job.priority,
    required_nodes: job.reqNodes ?? '',
    requeue: job.requeue,
    restart_cnt: job.restartCount,
    shared: job.exclusive ? 'none' : null,
    start_time: job.startTime,
    state_reason: job.reason,
    standard_error: job.errorGiven ? job.stderr : '',
    standard_input: job.stdin,
    standard_output: job.outputGiven ? job.stdout : '',
    submit_time: job.submitTime,
    time_limit: job.timeLimit === INFINITE ? null : job.timeLimit,
    tres_per_job: job.gpus ? `gres:gpu:${job.gpus}` : '',
    tres_per_node: job.gres ? gresTres(job.gres) : '',
    user_id: job.userId,
    user_name: job.userName,
    current_working_directory: job.workDir,
  };
}
