// GET /jobs's answer, built from tsrestd's copy of the job list (jobs-mirror.ts): each job's
// record is written as JSON once and kept while its view is the same object (a changed job
// arrives as a new one), and the answer is those texts joined; while the list does not change
// at all, the answer's bytes are sent again as they are. The answer depends on the list alone
// (meta and the cluster's name are fixed for tsrestd's life).
import { buildRecords, type SqueueRecord } from '../cli/format/squeue-records.js';
import { jobToData } from '../cli/format/job-data.js';
import type { JobView } from '../protocol/job-view.js';
import type { RestContext } from './context.js';
import { jobsMirror } from './jobs-mirror.js';
import { restMeta } from './meta.js';

interface Written {
  /** The record's jobs (an array's pending tasks kept together are several). */
  members: readonly JobView[];
  text: string;
}

interface Kept {
  version: number;
  body: Buffer;
  /** By the record's first job. */
  written: WeakMap<JobView, Written>;
}

const kept = new WeakMap<RestContext, Kept>();

/** The answer to GET /jobs as JSON bytes. */
export async function jobsListing(ctx: RestContext): Promise<Buffer> {
  const { views, version } = await jobsMirror(ctx.controller).jobs();
  const last = kept.get(ctx);
  if (last?.version === version) return last.body;
  const written = last?.written ?? new WeakMap<JobView, Written>();
  const texts = buildRecords(views).map((rec) => recordText(rec, written, ctx.clusterName));
  const head = JSON.stringify({ meta: restMeta(), errors: [] }).slice(0, -1);
  const body = Buffer.from(`${head},"jobs":[${texts.join(',')}]}`);
  kept.set(ctx, { version, body, written });
  return body;
}

function recordText(rec: SqueueRecord, written: WeakMap<JobView, Written>, cluster: string): string {
  const first = rec.members[0]!;
  const before = written.get(first);
  if (before && sameMembers(before.members, rec.members)) return before.text;
  const text = JSON.stringify(jobToData(rec, cluster));
  written.set(first, { members: rec.members, text });
  return text;
}

function sameMembers(a: readonly JobView[], b: readonly JobView[]): boolean {
  return a.length === b.length && a.every((view, i) => view === b[i]);
}
