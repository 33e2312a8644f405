// Plugin names in a cluster file: `cons_tres` and `select/cons_tres` both mean the
// select plugin cons_tres; everything is stored as `major/minor` (DESIGN.md §4).
import { BadValue } from './schema-kit.js';

// tslurm's defaults. Slurm's own differ where theirs need more setup: SchedulerType
// defaults to sched/backfill in slurm.conf. ProctrackType (Slurm's default proctrack/cgroup)
// is chosen by what the host allows: see default-proctrack.ts.
export const DEFAULT_PLUGINS = {
  select: 'select/cons_tres',
  mpiDefault: 'mpi/none',
  jobContainer: 'job_container/none',
  sched: 'sched/builtin',
  auth: 'auth/none',
} as const;

// Newer Slurm calls job_container plugins "namespace"; accept that major as a synonym.
const MAJOR_SYNONYMS: Record<string, string> = { namespace: 'job_container' };

const MINOR = /^[A-Za-z0-9_]+$/;

/** A converter for plugin names of one major type. */
export function pluginType(major: string): (text: string) => string {
  return (text) => {
    const trimmed = text.trim();
    const slash = trimmed.indexOf('/');
    const minor = slash < 0 ? trimmed : trimmed.slice(slash + 1);
    if (slash >= 0) {
      const given = trimmed.slice(0, slash);
      if ((MAJOR_SYNONYMS[given] ?? given) !== major) {
        throw new BadValue(`${JSON.stringify(text)} is not a ${major} plugin (expected ${major}/<name> or <name>)`);
      }
    }
    if (!MINOR.test(minor)) {
      throw new BadValue(`invalid plugin name ${JSON.stringify(text)} (expected ${major}/<name> or <name>)`);
    }
    return `${major}/${minor}`;
  };
}
