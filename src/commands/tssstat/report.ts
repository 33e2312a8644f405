// tssstat's output: the steps asked for, from the controller (`step-stats`), one line each in
// sstat's layout (a header, a line of dashes, values right-aligned and cut with `+`, JobID
// left-aligned), or `|`-separated (-p, -P), or JSON. A job without running steps gets sstat's
// line (observed: "No steps running for job N" for a job the controller knows, "couldn't get
// steps for job N" for one it does not), and the others are still shown.
import { connectController, type CtldClient } from '../../client/ctld-client.js';
import { printError } from '../../cli/error-line.js';
import type { ClusterConfig } from '../../config/types.js';
import type { StepStats } from '../../protocol/ctld-answers.js';
import type { ChosenField, StepRequestId } from './request.js';

export interface ReportContext {
  bin: string;
  config: ClusterConfig;
  stateDir: string;
  ids: StepRequestId[];
  fields: ChosenField[];
  allSteps: boolean;
  header: boolean;
  json: boolean;
  noconvert: boolean;
  parsable: 'ending' | 'no-ending' | undefined;
}

export async function reportSteps(ctx: ReportContext): Promise<number> {
  const clusterFile = ctx.config.source.startsWith('/') ? ctx.config.source : undefined;
  const client = await connectController({ config: ctx.config, stateDir: ctx.stateDir, clusterFile, autostart: false }).catch(() => undefined);
  const rows: StepStats[] = [];
  const missing: Array<{ id: StepRequestId; known: boolean }> = [];
  try {
    for (const id of ctx.ids) {
      const { steps: found, known } = client ? await stepsOf(client, id) : { steps: [], known: false };
      const chosen = id.step !== undefined || ctx.allSteps ? found : lowestNumbered(found);
      if (chosen.length === 0) missing.push({ id, known });
      rows.push(...chosen);
    }
  } finally {
    client?.close();
  }
  if (ctx.json) {
    process.stdout.write(`${JSON.stringify({ steps: rows.map((row) => jsonRow(row, ctx)) }, null, 2)}\n`);
  } else {
    const lines = ctx.parsable ? parsableLines(rows, ctx) : tableLines(rows, ctx);
    process.stdout.write(lines.map((line) => `${line}\n`).join(''));
  }
  for (const { id, known } of missing) printError(ctx.bin, known ? `No steps running for job ${id.jobId}` : `couldn't get steps for job ${id.jobId}`);
  return 0;
}

async function stepsOf(client: CtldClient, id: StepRequestId): Promise<{ steps: StepStats[]; known: boolean }> {
  const text = id.step === undefined ? String(id.jobId) : `${id.jobId}.${id.step}`;
  try {
    return await client.call<{ steps: StepStats[]; known: boolean }>('step-stats', { id: text });
  } catch {
    return { steps: [], known: false };
  }
}

/** sstat without a step and without -a: the lowest numbered running step (not the batch step). */
function lowestNumbered(steps: StepStats[]): StepStats[] {
  const numbered = steps.filter((s): s is StepStats & { stepId: number } => typeof s.stepId === 'number');
  if (numbered.length === 0) return [];
  return [numbered.reduce((low, s) => (s.stepId < low.stepId ? s : low))];
}

function values(row: StepStats, ctx: ReportContext): string[] {
  return ctx.fields.map((f) => f.spec.value(row, { noconvert: ctx.noconvert }));
}

// print_fields: `%*.*s ` (JobID `%-*.*s `), a value too wide cut with `+` in its last column.
function tableLines(rows: StepStats[], ctx: ReportContext): string[] {
  const cell = (text: string, f: ChosenField): string => {
    const fitted = text.length > f.width ? `${text.slice(0, f.width - 1)}+` : text;
    return f.spec.name === 'JobID' ? fitted.padEnd(f.width) : fitted.padStart(f.width);
  };
  const line = (texts: string[]): string => texts.map((t, i) => `${cell(t, ctx.fields[i]!)} `).join('');
  const out: string[] = [];
  if (ctx.header) {
    out.push(line(ctx.fields.map((f) => f.spec.name)));
    out.push(ctx.fields.map((f) => `${'-'.repeat(f.width)} `).join(''));
  }
  for (const row of rows) out.push(line(values(row, ctx)));
  return out;
}

function parsableLines(rows: StepStats[], ctx: ReportContext): string[] {
  const end = ctx.parsable === 'ending' ? '|' : '';
  const out = ctx.header ? [`${ctx.fields.map((f) => f.spec.name).join('|')}${end}`] : [];
  for (const row of rows) out.push(`${values(row, ctx).join('|')}${end}`);
  return out;
}

function jsonRow(row: StepStats, ctx: ReportContext): Record<string, unknown> {
  const fields = Object.fromEntries(ctx.fields.map((f) => [f.spec.name, f.spec.value(row, { noconvert: ctx.noconvert })]));
  return { job_id: row.jobId, step_id: String(row.stepId), nodes: row.nodes, tasks: row.ntasks, ...(row.usage && { usage: row.usage }), fields };
}
