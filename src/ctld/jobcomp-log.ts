// The job completion record the controller hands its jobcomp plugin once a job has ended
// (slurmctld's jobcomp_g_write from job_completion_logger): built from the job's view, so it
// says what `tscontrol show job` says. Loaded at the controller's start (JobCompType, default
// jobcomp/none) and told JobCompLoc; a failing plugin is logged and never stops the controller.
import { jobStateString } from '../core/job-state.js';
import { groupNameForGid } from '../os/groups.js';
import { JobcompFacade } from '../interfaces/jobcomp.js';
import { JOB_STATE_BASE } from '../plugin-api/records.js';
import type { jobcomp_record_t } from '../plugin-api/jobcomp.js';
import type { PluginRegistry } from '../plugin-host/registry.js';
import type { ClusterConfig } from '../config/types.js';
import type { Logger } from '../core/log.js';
import type { Controller } from './controller.js';
import type { CtldJob } from './job.js';
import { jobView } from './job-view.js';

/** Slurm's NO_VAL: the array task id of a job that is not an array task. */
const NO_VAL = 0xfffffffe;

export const DEFAULT_JOBCOMP = 'jobcomp/none';

/** Loads the cluster's jobcomp plugin and gives it JobCompLoc (a refusal is logged, not fatal). */
export async function loadJobcomp(registry: PluginRegistry, config: ClusterConfig, log: Logger): Promise<JobcompFacade> {
  const facade = new JobcompFacade(await registry.get('jobcomp', config.jobcomp?.type ?? DEFAULT_JOBCOMP), registry.timeoutMs, log);
  await facade.setLocation(config.jobcomp?.loc);
  return facade;
}

/** Offers the finished job to the plugin (once per end; a requeued job's later end is another). */
export function logJobCompletion(jobcomp: JobcompFacade, ctl: Controller, job: CtldJob): void {
  if (jobcomp.type === DEFAULT_JOBCOMP) return;
  void jobcomp.logRecord(jobcompRecord(ctl, job));
}

export function jobcompRecord(ctl: Controller, job: CtldJob): jobcomp_record_t {
  const view = jobView(ctl, job);
  const extras = view.options ?? {};
  const isArrayTask = view.arrayTaskId !== null && view.arrayJobId !== 0;
  const batch = view.batch !== false;
  return {
    job_id: view.jobId,
    array_job_id: isArrayTask ? view.arrayJobId : 0,
    array_task_id: isArrayTask ? view.arrayTaskId! : NO_VAL,
    het_job_id: 0,
    het_job_offset: 0,
    user_id: view.userId,
    user_name: view.userName,
    group_id: view.groupId,
    group_name: groupNameForGid(view.groupId) ?? String(view.groupId),
    name: view.name,
    job_state: jobStateString(view.state & JOB_STATE_BASE),
    state_reason_prev: view.reason,
    partition: view.partition,
    time_limit: view.timeLimit,
    submit_time: view.submitTime,
    eligible_time: view.eligibleTime,
    // A job cancelled while pending with an expected start later than its end: never started.
    start_time: view.startTime > view.endTime ? 0 : view.startTime,
    end_time: view.endTime,
    nodes: view.nodes ?? '',
    node_cnt: view.nodes === null ? 0 : view.numNodes,
    total_cpus: view.numCpus,
    work_dir: view.workDir || 'unknown',
    resv_name: view.reservation ?? '',
    tres_req: `cpu=${view.numCpus},mem=${view.memPerNode ?? 0}M,node=${view.numNodes},billing=${view.numCpus}`,
    account: extras.account ?? '',
    qos: extras.qos ?? '',
    wckey: extras.wckey ?? '',
    cluster: ctl.options.config.clusterName,
    features: view.features ?? '',
    dependency: view.dependency ?? '',
    batch_flag: batch,
    exit_code: view.exitStatus,
    derived_ec: view.derivedExitStatus ?? 0,
    // As the job was submitted (sbatch sends -o/-e/-i as given): '' when not given.
    std_in: job.desc.input ?? '',
    std_out: job.desc.output ?? '',
    std_err: job.desc.error ?? '',
  };
}
