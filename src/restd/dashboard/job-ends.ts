// The log of recent job ends: a job the previous poll saw in the queue that has now ended, or
// has gone from the controller's list altogether (purged after MinJobAge between two polls).
// On the first poll, the ended jobs the controller still holds seed the log; so they do, those
// not logged yet, on the first poll after a stretch with no polls (no page watched).
import type { DashJob } from './view.js';

export interface JobEnd {
  id: string;
  jobId: number;
  name: string;
  user: string;
  partition: string;
  /** COMPLETED, FAILED, CANCELLED, TIMEOUT, ...; ENDED when it was gone before it was seen ended. */
  state: string;
  exitCode: string;
  nodes: string | null;
  /** Unix seconds. */
  endTime: number;
}

export const JOB_END_LOG_SIZE = 200;

function endOf(job: DashJob, state = job.state, endTime = job.endTime): JobEnd {
  const { id, jobId, name, user, partition, exitCode, nodes } = job;
  return { id, jobId, name, user, partition, state, exitCode, nodes, endTime };
}

/** Follows the queue poll by poll and keeps the newest ends first. */
export class JobEndLog {
  private entries: JobEnd[] = [];
  private live = new Map<number, DashJob>();
  private first = true;
  private catchingUp = false;

  constructor(private readonly size = JOB_END_LOG_SIZE) {}

  /** The next poll follows a stretch with none: the ended jobs it lists that the log lacks are ends too. */
  catchUp(): void {
    this.catchingUp = true;
  }

  /** Takes one poll's jobs; returns the ends it found, newest first. */
  observe(jobs: readonly DashJob[], nowSeconds: number): JobEnd[] {
    const found: JobEnd[] = [];
    const nextLive = new Map<number, DashJob>();
    const seen = new Set<number>();
    const logged = this.catchingUp ? new Set(this.entries.map((end) => end.jobId)) : undefined;
    for (const job of jobs) {
      seen.add(job.jobId);
      if (!job.ended) nextLive.set(job.jobId, job);
      else if (this.first || this.live.has(job.jobId) || (logged !== undefined && !logged.has(job.jobId))) found.push(endOf(job));
    }
    this.catchingUp = false;
    for (const [jobId, job] of this.live) {
      if (!seen.has(jobId)) found.push(endOf(job, 'ENDED', nowSeconds));
    }
    this.live = nextLive;
    this.first = false;
    found.sort((a, b) => b.endTime - a.endTime || b.jobId - a.jobId);
    this.entries = [...found, ...this.entries].slice(0, this.size);
    return found;
  }

  list(): readonly JobEnd[] {
    return this.entries;
  }
}
