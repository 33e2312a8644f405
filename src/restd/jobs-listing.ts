// GET /jobs's answer, kept: the controller is asked for its job list with the digest of the
// last one (ctld/jobs-digest.ts); while nothing changed the kept answer text is sent again,
// without fetching, decoding, converting or encoding 10,000 jobs. The answer depends on the
// list alone (meta and the cluster's name are fixed for tsrestd's life).
import { buildRecords } from '../cli/format/squeue-records.js';
import { jobToData } from '../cli/format/job-data.js';
import type { DigestedJobs } from '../ctld/jobs-digest.js';
import type { JobView } from '../protocol/job-view.js';
import type { RestContext } from './context.js';
import { restMeta } from './meta.js';

interface Kept {
  digest: string;
  text: string;
}

const kept = new WeakMap<RestContext, Kept>();

/** The answer to GET /jobs as JSON text. */
export async function jobsListing(ctx: RestContext): Promise<string> {
  const last = kept.get(ctx);
  const answer = await ctx.controller.call<DigestedJobs>('jobs', { unlessDigest: last?.digest ?? '' });
  if ('unchanged' in answer && last) return last.text;
  if (!('json' in answer)) throw new Error('the controller answered an unchanged list tsrestd does not have');
  const views = JSON.parse(answer.json) as JobView[];
  const text = JSON.stringify({ meta: restMeta(), errors: [], jobs: buildRecords(views).map((rec) => jobToData(rec, ctx.clusterName)) });
  kept.set(ctx, { digest: answer.digest, text });
  return text;
}
