// `scontrol show job` for one job, line by line as Slurm 22.05's slurm_sprint_job_info()
// prints a batch job (observed on Slurm 22.05). Accounting fields tslurm has no source for
// (Account, QOS, MCS label, reboot, power) print as Slurm prints them without accounting.
import { batchOutputPath } from '../../core/io-pattern.js';
import { compressHostlist } from '../../core/hostlist.js';
import { jobStateString } from '../../core/job-state.js';
import { formatSlurmDate, minsToTimeStr, secsToTimeStr } from '../../core/time-string.js';
import { JOB_PENDING, JOB_STATE_BASE } from '../../plugin-api/records.js';
import type { JobDetails, JobView } from '../../protocol/job-view.js';
import type { JobExtras } from '../../protocol/job-desc.js';
import { formatMemSuffix } from '../../core/memory-size.js';

/** `details`: scontrol's -d count; with one or more, the lines -d adds (job.details must be there). */
export function jobRecordLines(job: JobView, now: number, details = 0): string[] {
  const more = details > 0 ? job.details : undefined;
  const pending = (job.state & JOB_STATE_BASE) === JOB_PENDING;
  const opt = job.options ?? {};
  const arrayPart = job.arrayJobId !== 0 ? ` ArrayJobId=${job.arrayJobId} ArrayTaskId=${job.arrayTaskId}` : '';
  const throttle = job.arrayJobId !== 0 && job.arrayMaxRunning !== null ? ` ArrayTaskThrottle=${job.arrayMaxRunning}` : '';
  const runTime = job.startTime === 0 ? 0 : (job.endTime > 0 && job.endTime !== 0xffffffff && job.endTime <= now ? job.endTime : now) - job.startTime;
  const lines = [
    `JobId=${job.jobId}${arrayPart}${throttle} JobName=${job.name}`,
    `UserId=${job.userName}(${job.userId}) GroupId=${groupName(job)}(${job.groupId}) MCS_label=N/A`,
    `Priority=${job.priority} Nice=${opt.nice ?? 0} Account=${opt.account ?? '(null)'} QOS=${opt.qos ?? '(null)'}`,
    `JobState=${jobStateString(job.state)} Reason=${job.reason} Dependency=${job.dependency ?? '(null)'}`,
    `Requeue=${job.requeue ? 1 : 0} Restarts=${job.restartCount} BatchFlag=${job.batch === false ? 0 : 1} Reboot=${opt.reboot ? 1 : 0} ExitCode=${exitCode(job.exitStatus)}`,
    ...(more ? [`DerivedExitCode=${exitCode(more.derivedExitStatus)}`] : []),
    `RunTime=${secsToTimeStr(Math.max(0, runTime))} TimeLimit=${minsToTimeStr(job.timeLimit)} TimeMin=${opt.timeMin === undefined ? 'N/A' : minsToTimeStr(opt.timeMin)}`,
    `SubmitTime=${formatSlurmDate(job.submitTime)} EligibleTime=${formatSlurmDate(job.eligibleTime)}`,
    `AccrueTime=${formatSlurmDate(job.eligibleTime)}`,
    `StartTime=${formatSlurmDate(job.startTime)} EndTime=${formatSlurmDate(job.endTime)} Deadline=N/A`,
    `SuspendTime=None SecsPreSuspend=0 LastSchedEval=${formatSlurmDate(job.submitTime)} Scheduler=Main`,
    `Partition=${job.partition} AllocNode:Sid=${job.allocNode}:${job.allocSid ?? 0}`,
    `ReqNodeList=(null) ExcNodeList=(null)`,
    `NodeList=${job.nodes ?? ''}${job.schedNodes ? ` SchedNodeList=${job.schedNodes}` : ''}`,
  ];
  if (job.batchHost) lines.push(`BatchHost=${job.batchHost}`);
  const tasks = job.numTasks ?? 1;
  const cpt = job.cpusPerTask ?? 1;
  lines.push(
    `NumNodes=${job.numNodes} NumCPUs=${job.numCpus} NumTasks=${tasks} CPUs/Task=${cpt} ReqB:S:C:T=0:0:*:*`,
    `TRES=${tres(job, pending)}`,
    'Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*',
    ...(more ? allocationLines(more) : []),
    `MinCPUsNode=${Math.max(cpt, opt.minCpusPerNode ?? 0)} MinMemoryNode=${job.memPerNode ? `${job.memPerNode}M` : '0'} MinTmpDiskNode=${opt.tmpDisk ? formatMemSuffix(opt.tmpDisk) : '0'}`,
    `Features=${job.features ?? '(null)'} DelayBoot=00:00:00`,
    ...(job.reservation ? [`Reservation=${job.reservation}`] : []),
    'OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)',
    `Command=${job.command || '(null)'}`,
    `WorkDir=${job.workDir}`,
  );
  if (job.comment) lines.push(`Comment=${job.comment} `);
  // An srun job has no Std* lines (observed on Slurm 22.05).
  if (job.batch !== false) lines.push(`StdErr=${ioPath(job, job.stderr)}`, `StdIn=${job.stdin}`, `StdOut=${ioPath(job, job.stdout)}`);
  lines.push('Power=', ...optionLines(job, opt));
  // Slurm 22.05 ends a job record with an empty line of its own ("Power=\n   \n\n").
  lines.push('');
  return lines;
}

// -d: JOB_GRES= and, per run of nodes given the same, `  Nodes= CPU_IDs= Mem= GRES=` (the two
// leading spaces are scontrol's); nothing while the job has no allocation.
function allocationLines(details: JobDetails): string[] {
  if (details.nodes === null) return [];
  const lines = [`JOB_GRES=${details.gres ?? '(null)'}`];
  let run: string[] = [];
  details.nodes.forEach((node, i) => {
    run.push(node.name);
    const next = details.nodes![i + 1];
    if (next && next.cpuIds === node.cpuIds && next.memory === node.memory && next.gres === node.gres) return;
    lines.push(`  Nodes=${compressHostlist(run)} CPU_IDs=${node.cpuIds} Mem=${node.memory} GRES=${node.gres}`);
    run = [];
  });
  return lines;
}

// The optional lines after Power=, in slurm_sprint_job_info()'s order: GPUs per node and
// per task (22.05's `gres:gpu:N` form), then mail (only with a mail type, as Slurm).
function optionLines(job: JobView, opt: JobExtras): string[] {
  const lines: string[] = [];
  const gpus = (text: string): string => `gres:gpu:${text}`;
  if (opt.cpusPerGpu !== undefined) lines.push(`CpusPerTres=gres:gpu:${opt.cpusPerGpu}`);
  if (opt.memPerGpu !== undefined) lines.push(`MemPerTres=gres:gpu:${opt.memPerGpu}`);
  if (opt.gpusPerNode !== undefined) lines.push(`TresPerNode=${gpus(opt.gpusPerNode)}`);
  if (opt.gpusPerTask !== undefined) lines.push(`TresPerTask=${gpus(opt.gpusPerTask)}`);
  if (opt.mailType) lines.push(`MailUser=${opt.mailUser ?? job.userName} MailType=${opt.mailType}`);
  return lines;
}

function exitCode(status: number): string {
  return `${(status >> 8) & 0xff}:${status & 0x7f}`;
}

function groupName(job: JobView): string {
  return job.groupId === 0 ? 'root' : String(job.groupId);
}

function tres(job: JobView, pending: boolean): string {
  const perNode = job.memPerNode ?? (pending ? job.defaultNodeMemory : null);
  const mem = perNode ? `mem=${perNode * job.numNodes}M,` : '';
  return `cpu=${job.numCpus},${pending || mem ? mem : ''}node=${job.numNodes},billing=${job.numCpus}`;
}

// scontrol shows the output paths with the job's values filled in, as slurmd will open them.
function ioPath(job: JobView, pattern: string): string {
  return batchOutputPath(pattern, {
    jobId: job.jobId,
    ...(job.arrayJobId !== 0 && { arrayJobId: job.arrayJobId, arrayTaskId: job.arrayTaskId ?? 0 }),
    jobName: job.name,
    nodeName: job.batchHost ?? '',
    user: job.userName,
    workDir: job.workDir,
  });
}
