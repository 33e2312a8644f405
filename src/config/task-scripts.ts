// slurm.conf's TaskProlog and TaskEpilog: the programs the step daemons run around every task
// and batch script, as the job's user (stepd/task-scripts.ts). They travel with each launch
// (StepFacts, BatchSpec): a tsstepd daemon on another host reads no cluster file of its own.
import type { ClusterConfig } from './types.js';

export interface ConfTaskScripts {
  confTaskProlog?: string;
  confTaskEpilog?: string;
}

/** The cluster's TaskProlog and TaskEpilog; an empty value is none, as Slurm reads it. */
export function confTaskScripts(config: ClusterConfig | undefined): ConfTaskScripts {
  const settings = config?.slurmConf?.settings ?? {};
  const prolog = settings['TaskProlog'];
  const epilog = settings['TaskEpilog'];
  return { ...(prolog && { confTaskProlog: prolog }), ...(epilog && { confTaskEpilog: epilog }) };
}
