// The tsqueue loop (squeue.c main): -v's option dump, then each listing — the date line when
// squeue prints one, the controller's jobs, the table — again every -i seconds.
import { ctime } from '../../core/ctime.js';
import { buildRecords } from '../../cli/format/squeue-records.js';
import type { TsqueueParams } from './params.js';
import type { ClusterConfig } from '../../config/types.js';
import { fetchJobs } from './fetch.js';
import { dataReport, tableReport } from './report.js';
import { printError } from '../../cli/error-line.js';

export interface ListContext {
  bin: string;
  cluster: string;
  config: ClusterConfig;
  stateDir: string;
  clusterFile: string | undefined;
}

export async function listJobs(params: TsqueueParams, ctx: ListContext): Promise<number> {
  const out = (text: string): void => void process.stdout.write(text);
  for (const warning of params.warnings) printError(ctx.bin, warning);
  if (params.optionLines.length > 0) out(params.optionLines.map((l) => `${l}\n`).join(''));
  const fetch = { config: ctx.config, stateDir: ctx.stateDir, clusterFile: ctx.clusterFile };
  if (params.output !== 'table') {
    // squeue --json/--yaml dumps every job, whatever was asked for.
    out(await dataReport(await fetchJobs({ ...fetch, singleJob: undefined }), params, ctx.cluster));
    return 0;
  }
  let startNow = 0;
  for (let first = true; ; first = false) {
    if (params.date) out(`${ctime(new Date())}\n`);
    const records = buildRecords(await fetchJobs({ ...fetch, singleJob: params.singleJob }));
    // squeue reports unknown fields once, when it first prints, so not when loading the jobs
    // failed (observed: `squeue -O nosuch -j 1` says only `slurm_load_jobs error: ...`).
    if (first) for (const message of params.layout.invalid) printError(ctx.bin, message);
    const now = Math.floor(Date.now() / 1000);
    if (params.verbose > 0) {
      // Asked for one job or one user, squeue's answer carries no update time.
      const updated = params.singleJob !== undefined || params.singleUser ? 0 : now;
      out(`last_update_time=${updated} records=${records.length}\n`);
    }
    tableReport(records, params, { now, startNow, cluster: ctx.cluster, noConvert: params.noConvert, info: (m) => process.stderr.write(`${ctx.bin}: ${m}\n`) }, out);
    if (params.iterate === 0) return 0;
    startNow = now;
    out('\n');
    await new Promise((resolve) => setTimeout(resolve, params.iterate * 1000));
  }
}
