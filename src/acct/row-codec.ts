// Records ⇄ rows: the one place that knows the column names.
import type { AcctJob, AcctStep } from './records.js';

const NOT_ENDED = 0xffffffff;

export type Row = Record<string, string | number | null>;

export function jobRow(job: Omit<AcctJob, 'steps'>): Row {
  return {
    job_id: job.jobId,
    array_job_id: job.arrayJobId,
    array_task_id: job.arrayTaskId,
    het_job_id: job.hetJobId,
    het_job_offset: job.hetJobOffset,
    name: job.name,
    partition: job.partition,
    account: job.account,
    user: job.user,
    uid: job.uid,
    grp: job.group,
    gid: job.gid,
    cluster: job.cluster,
    submit: job.submit,
    eligible: job.eligible,
    start: job.start,
    end: job.end,
    active_until: job.end === 0 ? NOT_ENDED : job.end,
    timelimit: job.timelimit,
    state: job.state,
    cancelled_by: job.cancelledBy,
    exit_code: job.exitCode,
    derived_exit_code: job.derivedExitCode,
    nnodes: job.nnodes,
    ncpus: job.ncpus,
    ntasks: job.ntasks,
    node_list: job.nodeList,
    req_mem_mb: job.reqMem?.mb ?? null,
    req_mem_per_cpu: job.reqMem?.perCpu ? 1 : 0,
    req_tres: job.reqTres,
    alloc_tres: job.allocTres,
    work_dir: job.workDir,
    submit_line: job.submitLine,
    reason: job.reason,
    priority: job.priority,
    restarts: job.restarts,
    qos: job.qos,
  };
}

export const JOB_COLUMNS = Object.keys(jobRow({} as AcctJob));

export function jobFromRow(r: Row): AcctJob {
  const n = (key: string): number => Number(r[key] ?? 0);
  const s = (key: string): string => String(r[key] ?? '');
  const orNull = (key: string): number | null => (r[key] === null || r[key] === undefined ? null : Number(r[key]));
  return {
    jobId: n('job_id'),
    arrayJobId: n('array_job_id'),
    arrayTaskId: orNull('array_task_id'),
    hetJobId: n('het_job_id'),
    hetJobOffset: orNull('het_job_offset'),
    name: s('name'),
    partition: s('partition'),
    account: s('account'),
    user: s('user'),
    uid: n('uid'),
    group: s('grp'),
    gid: n('gid'),
    cluster: s('cluster'),
    submit: n('submit'),
    eligible: n('eligible'),
    start: n('start'),
    end: n('end'),
    timelimit: n('timelimit'),
    state: n('state'),
    cancelledBy: orNull('cancelled_by'),
    exitCode: n('exit_code'),
    derivedExitCode: n('derived_exit_code'),
    nnodes: n('nnodes'),
    ncpus: n('ncpus'),
    ntasks: orNull('ntasks'),
    nodeList: s('node_list'),
    reqMem: r.req_mem_mb === null || r.req_mem_mb === undefined ? null : { mb: n('req_mem_mb'), perCpu: n('req_mem_per_cpu') === 1 },
    reqTres: s('req_tres'),
    allocTres: s('alloc_tres'),
    workDir: s('work_dir'),
    submitLine: s('submit_line'),
    reason: s('reason'),
    priority: n('priority'),
    restarts: n('restarts'),
    qos: s('qos'),
    steps: [],
  };
}

export function stepRow(step: AcctStep): Row {
  const u = step.usage;
  return {
    job_id: step.jobId,
    step_id: step.stepId,
    name: step.name,
    start: step.start,
    end: step.end,
    state: step.state,
    cancelled_by: step.cancelledBy,
    exit_code: step.exitCode,
    nnodes: step.nnodes,
    ncpus: step.ncpus,
    ntasks: step.ntasks,
    node_list: step.nodeList,
    alloc_tres: step.allocTres,
    max_rss_kib: u?.maxRssKiB ?? null,
    max_rss_task: u?.maxRssTask ?? null,
    max_rss_node: u?.maxRssNode ?? null,
    ave_rss_kib: u?.aveRssKiB ?? null,
    max_vmsize_kib: u?.maxVmSizeKiB ?? null,
    max_vmsize_task: u?.maxVmSizeTask ?? null,
    max_vmsize_node: u?.maxVmSizeNode ?? null,
    ave_vmsize_kib: u?.aveVmSizeKiB ?? null,
    user_cpu_usec: u?.userCpuUsec ?? null,
    system_cpu_usec: u?.systemCpuUsec ?? null,
  };
}

export const STEP_COLUMNS = Object.keys(stepRow({} as AcctStep));

export function stepFromRow(r: Row): AcctStep {
  const n = (key: string): number => Number(r[key] ?? 0);
  const usage =
    r.max_rss_kib === null || r.max_rss_kib === undefined
      ? null
      : {
          maxRssKiB: n('max_rss_kib'),
          maxRssTask: n('max_rss_task'),
          maxRssNode: String(r.max_rss_node ?? ''),
          aveRssKiB: n('ave_rss_kib'),
          maxVmSizeKiB: n('max_vmsize_kib'),
          maxVmSizeTask: n('max_vmsize_task'),
          maxVmSizeNode: String(r.max_vmsize_node ?? ''),
          aveVmSizeKiB: n('ave_vmsize_kib'),
          userCpuUsec: n('user_cpu_usec'),
          systemCpuUsec: n('system_cpu_usec'),
          sampledAt: n('end'),
        };
  return {
    jobId: n('job_id'),
    stepId: n('step_id'),
    name: String(r.name ?? ''),
    start: n('start'),
    end: n('end'),
    state: n('state'),
    cancelledBy: r.cancelled_by === null || r.cancelled_by === undefined ? null : n('cancelled_by'),
    exitCode: n('exit_code'),
    nnodes: n('nnodes'),
    ncpus: n('ncpus'),
    ntasks: n('ntasks'),
    nodeList: String(r.node_list ?? ''),
    allocTres: String(r.alloc_tres ?? ''),
    usage,
  };
}
