// scontrol listpids [JOB[.STEP]]: the processes of the job steps running on this host, one line
// each, under scontrol's header. slurmd answers this from its step containers; tslurm's step
// host starts every task and batch script with the job's environment, so the processes are
// found by it in /proc: SLURM_JOB_ID with SLURM_PROCID marks a job's process, SLURM_STEP_ID
// its step (none: the batch step). A process started by one of the same step (a task's own
// children) shows `-` for its task ids, as scontrol shows them. Only jobs the controller runs
// count. Messages and statuses are scontrol 22.05's (observed); `(null)` is the node name
// scontrol prints when run outside a job.
import { readFileSync, readdirSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { isFinished } from '../../core/job-state.js';
import { JOB_PENDING, JOB_STATE_BASE } from '../../plugin-api/records.js';
import type { JobView } from '../../protocol/job-view.js';
import { openController } from './controller-call.js';

const HEADER = 'PID      JOBID    STEPID   LOCALID GLOBALID';

interface JobProcess {
  pid: number;
  ppid: number;
  jobId: number;
  step: string;
  localId: string;
  globalId: string;
}

export async function listPids(words: readonly string[], cluster: string | undefined): Promise<number> {
  if (words.length > 1) throw new UserError('too many arguments for keyword:listpids', { bare: true });
  const wanted = words[0] === undefined ? undefined : parseWanted(words[0]);
  const running = await runningJobIds(cluster);
  const found = scanProcesses().filter((p) => running.has(p.jobId));
  const shown = found.filter((p) => wanted === undefined || (p.jobId === wanted.jobId && (wanted.step === undefined || p.step === wanted.step)));
  process.stdout.write(`${HEADER}\n${sortForListing(shown).map(row).join('')}`);
  if (wanted === undefined) {
    if (found.length > 0) return 0;
    process.stderr.write('No job steps exist on this node.\n');
    return 1;
  }
  if (shown.length > 0) return 0;
  process.stderr.write(found.length === 0 ? `JobId=${wanted.jobId} does not exist on node (null).\n` : `There are no steps for job ${wanted.jobId} on node (null).\n`);
  return 1;
}

function parseWanted(text: string): { jobId: number; step: string | undefined } {
  const match = /^(\d+)(?:\.(\d+|batch))?$/.exec(text);
  if (!match) throw new UserError(`"${text}" does not look like a jobid`, { bare: true });
  return { jobId: Number(match[1]), step: match[2] };
}

async function runningJobIds(cluster: string | undefined): Promise<Set<number>> {
  const client = await openController(cluster, false);
  if (!client) return new Set();
  try {
    const views = await client.call<JobView[]>('jobs', {});
    return new Set(views.filter((v) => (v.state & JOB_STATE_BASE) !== JOB_PENDING && !isFinished(v.state)).map((v) => v.jobId));
  } finally {
    client.close();
  }
}

/** Every live process of this host whose environment makes it part of a job step. */
function scanProcesses(): JobProcess[] {
  const out: JobProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const tail = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (tail[0] === 'Z' || tail[0] === 'X') continue;
      const env = new Map(
        readFileSync(`/proc/${name}/environ`, 'latin1')
          .split('\0')
          .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const),
      );
      const job = env.get('SLURM_JOB_ID');
      const procId = env.get('SLURM_PROCID');
      if (job === undefined || procId === undefined || !/^\d+$/.test(job)) continue;
      out.push({
        pid: Number(name),
        ppid: Number(tail[1]),
        jobId: Number(job),
        step: env.get('SLURM_STEP_ID') ?? 'batch',
        localId: env.get('SLURM_LOCALID') ?? '-',
        globalId: procId,
      });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  // A process started by another of the same step is not a task of its own.
  const key = (p: JobProcess): string => `${p.jobId}.${p.step}`;
  const byPid = new Map(out.map((p) => [p.pid, p]));
  return out.map((p) => {
    const parent = byPid.get(p.ppid);
    return parent !== undefined && key(parent) === key(p) ? { ...p, localId: '-', globalId: '-' } : p;
  });
}

// Jobs in order; in a job its numbered steps, then the batch step (the order slurmd listed
// them in); in a step its tasks first, then what they started, by pid.
function sortForListing(list: readonly JobProcess[]): JobProcess[] {
  const stepRank = (step: string): number => (step === 'batch' ? Number.MAX_SAFE_INTEGER : Number(step));
  return [...list].sort(
    (a, b) =>
      a.jobId - b.jobId ||
      stepRank(a.step) - stepRank(b.step) ||
      Number(a.localId === '-') - Number(b.localId === '-') ||
      a.pid - b.pid,
  );
}

// `%-8d %-8s %-8s %-7s %-8s`, trailing spaces included, as scontrol prints them.
function row(p: JobProcess): string {
  return `${String(p.pid).padEnd(8)} ${String(p.jobId).padEnd(8)} ${p.step.padEnd(8)} ${p.localId.padEnd(7)} ${p.globalId.padEnd(8)}\n`;
}
