// tsacct's listing: the store's jobs for the filter, a line per job and per step (sacct's
// order: the job, its batch step, its extern step, its numbered steps), or the data_parser
// document. No store yet (no job recorded) is an empty listing.
import { accountingStorePath } from '../../acct/store-path.js';
import type { AcctJob } from '../../acct/records.js';
import { expandHostlist } from '../../core/hostlist.js';
import type { AcctLine } from './fields.js';
import { headerLines, lineText } from './print.js';
import type { TsacctParams } from './params.js';

export async function readJobs(stateDir: string, params: TsacctParams): Promise<AcctJob[]> {
  const [{ openStoreForReading }, { queryJobs }] = await Promise.all([import('../../acct/open-store.js'), import('../../acct/query.js')]);
  const db = await openStoreForReading(accountingStorePath(stateDir));
  if (!db) return [];
  try {
    return queryJobs(db, params.filter).filter((job) => wanted(job, params));
  } finally {
    db.close();
  }
}

function wanted(job: AcctJob, params: TsacctParams): boolean {
  if (params.accounts && !params.accounts.includes(job.account)) return false;
  if (params.nodes) {
    if (job.nodeList === '' || job.nodeList === 'None assigned') return false;
    if (!expandHostlist(job.nodeList).some((name) => params.nodes!.has(name))) return false;
  }
  return true;
}

export function tableText(jobs: readonly AcctJob[], params: TsacctParams, now: number): string {
  const ctx = { now, sizes: params.sizes };
  let out = params.style.header ? headerLines(params.columns, params.style) : '';
  const stepsOnly = new Set((params.filter.jobIds ?? []).filter((id) => id.stepId !== undefined).map((id) => id.jobId));
  for (const job of jobs) {
    const lines: AcctLine[] = stepsOnly.has(job.jobId) ? [] : [{ job, step: undefined }];
    if (!params.filter.noSteps) for (const step of job.steps) lines.push({ job, step });
    for (const line of lines) out += lineText(params.columns, line, ctx, params.style);
  }
  return out;
}
