// The job list for a client that keeps the last one (tsrestd): its digest, and the list only
// when the digest differs from the one the client has, as slurm_load_jobs(update_time) gets
// SLURM_NO_CHANGE_IN_DATA. The digest is of the list's exact JSON, so any change to any field
// of any job is a change, with nothing to keep in step with the places that change jobs. A
// changed list travels as its JSON text, the text the digest was taken of, not encoded twice.
import { createHash } from 'node:crypto';
import type { JobView } from '../protocol/job-view.js';

export type DigestedJobs = { digest: string; unchanged: true } | { digest: string; json: string };

export function digestedViews(views: readonly JobView[], unlessDigest: string): DigestedJobs {
  const json = JSON.stringify(views);
  const digest = createHash('sha256').update(json).digest('base64url');
  return digest === unlessDigest ? { digest, unchanged: true } : { digest, json };
}
