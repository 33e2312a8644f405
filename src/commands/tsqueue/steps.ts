// squeue -s in its default format, `%.15i %.8j %.9P %.8u %.9M %N` (observed on Slurm 22.05):
// the steps the controller knows, each job's numbered steps before its batch step. No
// controller running: no job, so the header alone.
import { connectController } from '../../client/ctld-client.js';
import { formatSlurmTime } from '../../core/time-string.js';
import type { StepView } from '../../protocol/ctld-answers.js';
import type { ClusterConfig } from '../../config/types.js';

export interface StepListContext {
  config: ClusterConfig;
  stateDir: string;
  clusterFile: string | undefined;
  header: boolean;
}

export async function listSteps(ctx: StepListContext): Promise<number> {
  let steps: StepView[] = [];
  const client = await connectController({ config: ctx.config, stateDir: ctx.stateDir, clusterFile: ctx.clusterFile, autostart: false }).catch(() => undefined);
  if (client) {
    try {
      steps = (await client.call<{ steps: StepView[] }>('steps', {})).steps;
    } finally {
      client.close();
    }
  }
  const order = (step: StepView): number => (step.stepId === 'batch' ? Number.MAX_SAFE_INTEGER : step.stepId);
  steps.sort((a, b) => a.jobId - b.jobId || order(a) - order(b));
  const now = Math.floor(Date.now() / 1000);
  const rows = steps.map((s) => [`${s.jobId}.${s.stepId}`, s.name, s.partition, s.userName, formatSlurmTime(Math.max(0, now - s.startTime)), s.nodes]);
  if (ctx.header) rows.unshift(['STEPID', 'NAME', 'PARTITION', 'USER', 'TIME', 'NODELIST']);
  const widths = [15, 8, 9, 8, 9];
  // `%.N`: right-aligned in N columns, cut to N; the last field as it is.
  const line = (row: string[]): string => row.map((field, i) => (i < widths.length ? field.slice(0, widths[i]).padStart(widths[i]!) : field)).join(' ');
  process.stdout.write(rows.map((row) => `${line(row)}\n`).join(''));
  return 0;
}
