// sacct --json/--yaml: the jobs in the shape of Slurm 22.05's data_parser (openapi v0.0.38,
// what slurmrestd's /slurmdb/v0.0.38/jobs answers): one object per job with its steps,
// times in Unix seconds, exit codes as {status, return_code[, signal]}, TRES as lists.
import { dataParserDocument, dataParserText } from '../../cli/format/data-parser.js';
import { jobStateString } from '../../core/job-state.js';
import { constants } from 'node:os';
import { INFINITE } from '../../core/slurm-constants.js';
import { JOB_STATE_BASE } from '../../plugin-api/records.js';
import type { AcctJob, AcctStep } from '../../acct/records.js';
import { jobIdText, stepName } from './fields.js';

const TRES_IDS: Record<string, number> = { cpu: 1, mem: 2, energy: 3, node: 4, billing: 5 };

export async function acctDocument(jobs: readonly AcctJob[], yaml: boolean, now: number): Promise<string> {
  return dataParserText(dataParserDocument({ jobs: jobs.map((job) => jobData(job, now)) }), yaml);
}

export function jobData(job: AcctJob, now: number): Record<string, unknown> {
  const cpu = cpuOf(job.steps);
  return {
    account: job.account,
    comment: { administrator: '', job: '', system: '' },
    allocation_nodes: job.nnodes,
    array: {
      job_id: job.arrayJobId,
      limits: { max: { running: { tasks: 0 } } },
      ...(job.arrayTaskId !== null && { task_id: job.arrayTaskId }),
      task: job.arrayTaskId === null ? '' : String(job.arrayTaskId),
    },
    association: { account: job.account, cluster: job.cluster, partition: job.partition, user: job.user },
    cluster: job.cluster,
    constraints: '',
    derived_exit_code: exitCode(job.derivedExitCode),
    time: {
      elapsed: elapsed(job.start, job.end, now),
      eligible: job.eligible,
      end: job.end,
      start: job.start,
      submission: job.submit,
      suspended: 0,
      system: usec(cpu.system),
      limit: job.timelimit === INFINITE ? 0 : job.timelimit,
      total: usec(cpu.user + cpu.system),
      user: usec(cpu.user),
    },
    exit_code: exitCode(job.exitCode),
    flags: [],
    group: job.group,
    het: { job_id: job.hetJobId, job_offset: job.hetJobOffset },
    job_id: job.jobId,
    name: job.name,
    mcs: { label: '' },
    nodes: job.nodeList,
    partition: job.partition,
    priority: job.priority,
    qos: job.qos,
    required: { CPUs: job.ncpus, memory: job.reqMem?.mb ?? 0 },
    kill_request_user: job.cancelledBy === null ? null : String(job.cancelledBy),
    reservation: { id: 0, name: 0 },
    state: { current: jobStateString(job.state & JOB_STATE_BASE), reason: job.reason },
    steps: job.steps.map((step) => stepData(job, step, now)),
    tres: { allocated: tresList(job.allocTres), requested: tresList(job.reqTres) },
    user: job.user,
    wckey: { wckey: '', flags: [] },
    working_directory: job.workDir,
  };
}

function stepData(job: AcctJob, step: AcctStep, now: number): Record<string, unknown> {
  const u = step.usage;
  return {
    time: {
      elapsed: elapsed(step.start, step.end, now),
      end: step.end,
      start: step.start,
      suspended: 0,
      system: usec(u?.systemCpuUsec ?? 0),
      total: usec(u ? u.userCpuUsec + u.systemCpuUsec : 0),
      user: usec(u?.userCpuUsec ?? 0),
    },
    exit_code: exitCode(step.exitCode),
    nodes: { count: step.nnodes, range: step.nodeList },
    tasks: { count: step.ntasks },
    kill_request_user: step.cancelledBy === null ? null : String(step.cancelledBy),
    state: jobStateString(step.state & JOB_STATE_BASE),
    step: { job_id: job.jobId, het: { component: null }, id: `${jobIdText(job)}.${stepName(step.stepId)}`, name: step.name },
    tres: {
      allocated: tresList(step.allocTres),
      requested: u
        ? {
            max: [{ type: 'mem', name: '', id: 2, count: u.maxRssKiB * 1024, task: u.maxRssTask, node: u.maxRssNode }, { type: 'vmem', name: '', id: 7, count: u.maxVmSizeKiB * 1024, task: u.maxVmSizeTask, node: u.maxVmSizeNode }],
            average: [{ type: 'mem', name: '', id: 2, count: u.aveRssKiB * 1024 }, { type: 'vmem', name: '', id: 7, count: u.aveVmSizeKiB * 1024 }],
          }
        : { max: [], average: [] },
    },
  };
}

function cpuOf(steps: readonly AcctStep[]): { user: number; system: number } {
  return steps.reduce((sum, s) => ({ user: sum.user + (s.usage?.userCpuUsec ?? 0), system: sum.system + (s.usage?.systemCpuUsec ?? 0) }), { user: 0, system: 0 });
}

function usec(value: number): { seconds: number; microseconds: number } {
  return { seconds: Math.floor(value / 1e6), microseconds: value % 1e6 };
}

function elapsed(start: number, end: number, now: number): number {
  return start === 0 ? 0 : Math.max(0, (end === 0 ? now : end) - start);
}

// v0.0.38's exit code: SUCCESS, FAILED with the code, or SIGNALED with the signal.
function exitCode(status: number): Record<string, unknown> {
  const signal = status & 0x7f;
  const code = (status >> 8) & 0xff;
  if (signal !== 0) return { status: 'SIGNALED', return_code: code, signal: { signal_id: signal, name: signalName(signal) ?? String(signal) } };
  return { status: code === 0 ? 'SUCCESS' : 'FAILED', return_code: code };
}

// Slurm's signal names have no SIG prefix (KILL, TERM).
function signalName(signal: number): string | undefined {
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return entry?.[0].replace(/^SIG/, '');
}

function tresList(text: string): Array<{ type: string; name: string; id: number; count: number }> {
  if (text === '') return [];
  return text.split(',').map((pair) => {
    const [type = '', value = '0'] = pair.split('=');
    const unit = /[KMGTP]$/.exec(value)?.[0];
    const count = unit ? Math.round(Number(value.slice(0, -1)) * 1024 ** ('KMGTP'.indexOf(unit) - 1)) : Number(value);
    return { type, name: '', id: TRES_IDS[type] ?? 0, count };
  });
}
