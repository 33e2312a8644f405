// JobAcctGatherFrequency: how often the step daemons sample the tasks' use of memory and CPU
// (seconds; 0 takes no samples, only each task's final figures). slurm.conf writes it as `30`
// or `task=30` (with other kinds, `task=30,energy=0`, whose other entries tslurm does not
// gather); the cluster YAML as `acct_gather_frequency: 30` (either form). Slurm's default, 30.
import { BadValue } from './schema-kit.js';
import type { ClusterConfig } from './types.js';

export const DEFAULT_ACCT_GATHER_SECONDS = 30;

/** `30`, `task=30`, `task=30,energy=10`: the task sampling period; throws BadValue otherwise. */
export function parseGatherFrequency(value: string | number): number {
  const text = String(value).trim();
  const task = text.split(',').find((part) => /^task=/i.test(part.trim())) ?? (/^\d+$/.test(text) ? text : undefined);
  const seconds = task === undefined ? Number.NaN : Number(task.replace(/^task=/i, '').trim());
  if (text.includes('=') && task === undefined && text.split(',').every((part) => /^\w+=\d+$/.test(part.trim()))) return DEFAULT_ACCT_GATHER_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 65535) {
    throw new BadValue(`invalid JobAcctGatherFrequency ${JSON.stringify(text)} (seconds, or task=seconds)`);
  }
  return seconds;
}

/** The cluster's task sampling period: the YAML's, else slurm.conf's, else 30 s. */
export function acctGatherSeconds(config: ClusterConfig | undefined): number {
  if (config?.acctGatherFrequency !== undefined) return config.acctGatherFrequency;
  const fromConf = config?.slurmConf?.settings['JobAcctGatherFrequency'];
  if (fromConf === undefined) return DEFAULT_ACCT_GATHER_SECONDS;
  try {
    return parseGatherFrequency(fromConf);
  } catch {
    return DEFAULT_ACCT_GATHER_SECONDS;
  }
}
