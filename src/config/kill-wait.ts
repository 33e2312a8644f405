// Slurm's KillWait (seconds between SIGTERM and SIGKILL when a step ends early) and MinJobAge
// (seconds a finished job stays listed): TSLURM_KILL_WAIT / TSLURM_MIN_JOB_AGE when set (tests
// shorten them), else the cluster's slurm.conf, else Slurm's defaults, 30 and 300.
import type { ClusterConfig } from './types.js';

export function killWaitSeconds(config: ClusterConfig | undefined, env: NodeJS.ProcessEnv = process.env): number {
  return seconds(env.TSLURM_KILL_WAIT) ?? seconds(config?.slurmConf?.settings['KillWait']) ?? 30;
}

export function minJobAgeSeconds(config: ClusterConfig | undefined, env: NodeJS.ProcessEnv = process.env): number {
  return seconds(env.TSLURM_MIN_JOB_AGE) ?? seconds(config?.slurmConf?.settings['MinJobAge']) ?? 300;
}

function seconds(text: string | undefined): number | undefined {
  const value = Number.parseFloat(text ?? '');
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
