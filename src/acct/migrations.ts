// The store's schema, as ordered steps: SQLite's user_version says how many have run, and
// opening a store runs the rest in one transaction each, so a store written by an older
// tslurm is brought forward and one from a newer tslurm is refused rather than misread.
import type { Database } from 'better-sqlite3';

export interface Migration {
  version: number;
  /** What the step changes, for the log. */
  what: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    what: 'job and step records',
    sql: `
      CREATE TABLE jobs (
        job_id INTEGER PRIMARY KEY,
        array_job_id INTEGER NOT NULL DEFAULT 0,
        array_task_id INTEGER,
        het_job_id INTEGER NOT NULL DEFAULT 0,
        het_job_offset INTEGER,
        name TEXT NOT NULL,
        partition TEXT NOT NULL,
        account TEXT NOT NULL DEFAULT '',
        user TEXT NOT NULL,
        uid INTEGER NOT NULL,
        grp TEXT NOT NULL,
        gid INTEGER NOT NULL,
        cluster TEXT NOT NULL,
        submit INTEGER NOT NULL,
        eligible INTEGER NOT NULL DEFAULT 0,
        start INTEGER NOT NULL DEFAULT 0,
        end INTEGER NOT NULL DEFAULT 0,
        timelimit INTEGER NOT NULL,
        state INTEGER NOT NULL,
        cancelled_by INTEGER,
        exit_code INTEGER NOT NULL DEFAULT 0,
        derived_exit_code INTEGER NOT NULL DEFAULT 0,
        nnodes INTEGER NOT NULL,
        ncpus INTEGER NOT NULL,
        ntasks INTEGER,
        node_list TEXT NOT NULL DEFAULT '',
        req_mem_mb INTEGER,
        req_mem_per_cpu INTEGER NOT NULL DEFAULT 0,
        req_tres TEXT NOT NULL DEFAULT '',
        alloc_tres TEXT NOT NULL DEFAULT '',
        work_dir TEXT NOT NULL DEFAULT '',
        submit_line TEXT NOT NULL DEFAULT '',
        reason TEXT NOT NULL DEFAULT 'None',
        priority INTEGER NOT NULL DEFAULT 0,
        restarts INTEGER NOT NULL DEFAULT 0,
        qos TEXT NOT NULL DEFAULT ''
      );
      CREATE TABLE steps (
        job_id INTEGER NOT NULL,
        step_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        start INTEGER NOT NULL,
        end INTEGER NOT NULL DEFAULT 0,
        state INTEGER NOT NULL,
        cancelled_by INTEGER,
        exit_code INTEGER NOT NULL DEFAULT 0,
        nnodes INTEGER NOT NULL,
        ncpus INTEGER NOT NULL,
        ntasks INTEGER NOT NULL,
        node_list TEXT NOT NULL,
        alloc_tres TEXT NOT NULL DEFAULT '',
        max_rss_kib INTEGER,
        max_rss_task INTEGER,
        max_rss_node TEXT,
        ave_rss_kib INTEGER,
        max_vmsize_kib INTEGER,
        max_vmsize_task INTEGER,
        max_vmsize_node TEXT,
        ave_vmsize_kib INTEGER,
        user_cpu_usec INTEGER,
        system_cpu_usec INTEGER,
        PRIMARY KEY (job_id, step_id)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    what: 'indexes for time windows, users and retention',
    // A job still running has end 0: "not ended before the window" is end >= start OR end = 0,
    // which no index serves; active_until holds the end, or the largest time while it runs.
    sql: `
      ALTER TABLE jobs ADD COLUMN active_until INTEGER NOT NULL DEFAULT 4294967295;
      UPDATE jobs SET active_until = CASE WHEN end = 0 THEN 4294967295 ELSE end END;
      CREATE INDEX jobs_active_until ON jobs (active_until);
      CREATE INDEX jobs_uid ON jobs (uid, active_until);
      CREATE INDEX jobs_array ON jobs (array_job_id) WHERE array_job_id <> 0;
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Brings the store up to `target` (the newest by default); answers the steps it ran. */
export function migrate(db: Database, target = SCHEMA_VERSION): Migration[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(`schema version ${current} is newer than this tslurm's (${SCHEMA_VERSION})`);
  }
  const ran: Migration[] = [];
  for (const step of MIGRATIONS) {
    if (step.version <= current || step.version > target) continue;
    db.transaction(() => {
      db.exec(step.sql);
      db.pragma(`user_version = ${step.version}`);
    })();
    ran.push(step);
  }
  return ran;
}
