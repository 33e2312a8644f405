// slurm.conf's TaskProlog and TaskEpilog (a cluster YAML's task_prolog, task_epilog): the
// programs the step daemons run around every task and batch script, as the job's user
// (stepd/task-scripts.ts). They travel with each launch (StepFacts, BatchSpec): a tsstepd
// daemon on another host reads no cluster file of its own.
import type { ClusterConfig } from './types.js';

export interface ConfTaskScripts {
  confTaskProlog?: string;
  confTaskEpilog?: string;
}

export function confTaskScripts(config: ClusterConfig | undefined): ConfTaskScripts {
  return {
    ...(config?.taskProlog !== undefined && { confTaskProlog: config.taskProlog }),
    ...(config?.taskEpilog !== undefined && { confTaskEpilog: config.taskEpilog }),
  };
}
