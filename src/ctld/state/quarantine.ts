// A recovered job that fails the checks a new submission passes (written by an older build that
// did not check, or by hand) would poison the queue: every listing that reads it fails. Each
// such job is taken out before the controller uses its state, appended to `quarantine` beside
// the journal (one JSON line: when, why, the record as read) for inspection, and reported in
// one line naming the job and the field. The state saved on start then no longer holds it.
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { examine } from '../../protocol/check-body.js';
import { DependencySpecSchema, StoredJobDescSchema } from '../../protocol/job-desc.js';
import { int, jobId, minutes } from '../../protocol/schema-kit.js';
import type { StoredJob } from './stored-job.js';

// What the controller reads of a stored job before trusting it: the submission as a client's
// is checked, and the progress fields its listings and scheduling compute with. Loose: fields
// of other builds are kept.
const StoredJobSchema = v.looseObject({
  id: jobId,
  desc: StoredJobDescSchema,
  dependency: v.optional(v.nullable(DependencySpecSchema)),
  submit: int(0),
  state: int(0, 0xffffffff),
  priority: int(0, 0xffffffff),
  timeLimit: minutes,
  partition: v.string(),
  start: int(0, 0xffffffff),
  end: int(0, 0xffffffff),
  nodes: v.nullable(v.array(v.string())),
  arrayJobId: int(0, 0xffffffff),
  arrayTaskId: v.nullable(int(0, 0xffffffff)),
});

/** The file quarantined records go to, in the controller's state directory. */
export function quarantineFile(dir: string): string {
  return path.join(dir, 'quarantine');
}

/** Takes every invalid job out of `jobs`; each is kept in the quarantine file and named in `problems`. */
export function quarantineInvalid(jobs: Map<number, StoredJob>, dir: string, problems: string[]): void {
  const refused: Array<{ key: number; job: unknown; why: string }> = [];
  for (const [key, job] of jobs) {
    const result = examine(StoredJobSchema, job);
    if (!result.ok) refused.push({ key, job, why: `${result.problem.path || 'record'}: ${result.problem.why}` });
  }
  if (refused.length === 0) return;
  const file = quarantineFile(dir);
  const kept = setAside(file, refused.map(({ job, why }) => ({ why, job })));
  for (const { key, why } of refused) {
    jobs.delete(key);
    problems.push(`job ${key}: invalid record quarantined ${kept === undefined ? `to ${file}` : `but not kept (${file}: ${kept})`} (${why})`);
  }
}

// Appends the records and syncs them; on failure (a full disk) answers why: the jobs still stay
// out of the queue, which is what keeps it working.
function setAside(file: string, entries: Array<{ why: string; job: unknown }>): string | undefined {
  const at = Math.floor(Date.now() / 1000);
  try {
    const fd = openSync(file, 'a', 0o600);
    try {
      writeSync(fd, entries.map((entry) => `${JSON.stringify({ at, ...entry })}\n`).join(''));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}
