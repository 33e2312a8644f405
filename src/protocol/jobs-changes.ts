// The controller's answer to `jobs_since` (ctld/jobs-feed.ts): the jobs changed after a
// client's cursor and the ids of those gone, or the whole list when the cursor is not usable.
import type { JobView } from './job-view.js';

export interface JobsChanges {
  /** The feed the cursor belongs to (a new one with each controller). */
  feed: string;
  /** Where the client stands once it has taken this answer in. */
  cursor: number;
  /** `jobs` is the whole list: what the client had is to be dropped. */
  full: boolean;
  /** The jobs new or changed since the cursor, in the controller's order. */
  jobs: JobView[];
  /** Job ids gone since the cursor. */
  removed: number[];
}
