// scontrol show steps [N[.S]]: the steps the controller knows (the batch step of each running
// batch job, and the steps tsrun registered inside jobs), in scontrol's layout (observed on
// Slurm 22.05), one line each with -o.
import { UserError } from '../../core/errors.js';
import { slurm_strerror } from '../../core/errno.js';
import { INFINITE } from '../../core/slurm-constants.js';
import { formatSlurmDate, minsToTimeStr } from '../../core/time-string.js';
import type { StepView } from '../../protocol/ctld-answers.js';
import { openController } from './controller-call.js';

export async function showSteps(words: readonly string[], options: { cluster: string | undefined; oneliner: boolean }): Promise<number> {
  if (words.length > 1) throw new UserError('too many arguments for keyword:show');
  const id = words[0];
  const client = await openController(options.cluster, false, 'slurm_get_job_steps error:');
  let steps: StepView[] = [];
  // An unknown job (and, with no controller running, any job): slurm_perror()'s line, exit 1.
  const invalid = (message: string): number => {
    process.stderr.write(`slurm_get_job_steps error: ${message}\n`);
    return 1;
  };
  if (!client && id !== undefined) return invalid(slurm_strerror('ESLURM_INVALID_JOB_ID'));
  if (client) {
    try {
      steps = (await client.call<{ steps: StepView[] }>('steps', id === undefined ? {} : { id })).steps;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      return invalid(error.message);
    } finally {
      client.close();
    }
  }
  if (steps.length === 0) {
    if (id === undefined) {
      process.stdout.write('No job steps in the system\n');
      return 0;
    }
    const [job, step = ''] = id.split('.');
    process.stdout.write(`Job step ${job}.${step} not found\n`);
    return 1;
  }
  const records = steps.map((step) => stepLines(step));
  process.stdout.write(options.oneliner ? records.map((lines) => `${lines.join(' ')}\n`).join('') : records.map((lines) => `${lines.join('\n   ')}\n\n`).join(''));
  return 0;
}

function stepLines(step: StepView): string[] {
  const batch = step.stepId === 'batch';
  const timeLimit = step.timeLimit === INFINITE ? 'UNLIMITED' : minsToTimeStr(step.timeLimit);
  return [
    `StepId=${step.jobId}.${step.stepId} UserId=${step.userId} StartTime=${formatSlurmDate(step.startTime)} TimeLimit=${timeLimit}`,
    `State=RUNNING Partition=${step.partition} NodeList=${step.nodes}`,
    `Nodes=${step.nodeCount} CPUs=${step.cpus} Tasks=${step.ntasks} Name=${step.name} Network=(null)`,
    `TRES=${batch ? '(null)' : `cpu=${step.cpus},mem=0,node=${step.nodeCount}`}`,
    'ResvPorts=(null)',
    batch ? 'CPUFreqReq=Default' : `CPUFreqReq=Default Dist=${step.dist ?? 'Cyclic'}`,
    `SrunHost:Pid=${step.host ?? '(null)'}:${step.pid ?? 0}`,
  ];
}
