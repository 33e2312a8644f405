// `tscontrol reconfigure` (scontrol reconfigure): the controller reads its cluster file again,
// as slurmctld re-reads slurm.conf, and takes what 22.05 takes without a restart: partitions
// (the file's replace `tscontrol update PartitionName=` changes, as slurmctld rebuilds them;
// observed in /work/ref/reconfigure.txt), TaskProlog/TaskEpilog, JobAcctGatherFrequency,
// preemption, MpiDefault and the plugins' option blocks; node states set by
// tscontrol stay. What slurm.conf(5) says needs a restart keeps its running value, and each such
// change is named in the answer. Where slurmctld dies (a file it cannot read, nodes added,
// removed or changed: "hostnames inconsistency detected", fatal) the controller refuses the
// reconfigure instead and keeps its whole configuration; so it does when a partition that jobs
// still use is gone (slurmctld would cancel those jobs).
import { UserError, UserErrorList } from '../core/errors.js';
import { isFinished } from '../core/job-state.js';
import { reloadCluster } from '../config/load.js';
import type { ClusterConfig } from '../config/types.js';
import type { Controller } from './controller.js';
import { forgetPartitionUpdates } from './partition-updates.js';

/** A setting that takes effect only when the controller restarts: its cluster YAML and slurm.conf names. */
interface RestartOnly {
  yaml: string;
  conf: string;
  of(config: ClusterConfig): unknown;
}

const RESTART_ONLY: readonly RestartOnly[] = [
  { yaml: 'cluster', conf: 'ClusterName', of: (c) => c.clusterName },
  { yaml: 'control', conf: 'SlurmctldHost, SlurmctldPort or StateSaveLocation', of: (c) => c.control },
  { yaml: 'auth', conf: 'AuthType', of: (c) => c.auth },
  { yaml: 'plugins.select', conf: 'SelectType', of: (c) => c.plugins.select },
  { yaml: 'plugins.sched', conf: 'SchedulerType', of: (c) => c.plugins.sched },
  { yaml: 'plugins.job_container', conf: 'JobContainerType', of: (c) => c.plugins.jobContainer },
  { yaml: 'plugins.proctrack', conf: 'ProctrackType', of: (c) => [c.plugins.proctrack, c.plugins.proctrackFallback] },
  { yaml: 'plugins.plugin_dirs', conf: 'PluginDir', of: (c) => c.plugins.pluginDirs },
  { yaml: 'plugins.jobcomp', conf: 'JobCompType or JobCompLoc', of: (c) => c.jobcomp },
  { yaml: 'accounting.purge_after', conf: 'the accounting purge', of: (c) => c.accounting },
];

/** What a reconfigure did not apply (settings that wait for a restart), one line each. */
export interface Reconfigured {
  notes: string[];
}

/** Reads the cluster file again and applies it; throws, changing nothing, when it cannot be. */
export async function reloadConfig(ctl: Controller): Promise<Reconfigured> {
  const running = ctl.options.config;
  // The built-in cluster has no file: nothing to read again.
  if (!running.source.startsWith('/')) return { notes: [] };
  let read: ClusterConfig;
  try {
    read = await reloadCluster(running);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const lines = error instanceof UserErrorList ? [...error.messages] : [error.message];
    ctl.log.error(`reconfigure: ${lines.join('; ')}; the configuration is unchanged`);
    throw new UserErrorList(lines);
  }
  refuseNodeChange(running, read);
  refuseLostPartition(ctl, read);
  const names = read.slurmConf !== undefined ? 'conf' : 'yaml';
  const notes = RESTART_ONLY.filter((s) => JSON.stringify(s.of(running)) !== JSON.stringify(s.of(read))).map(
    (s) => `${running.source}: ${s[names]} changed: it takes effect when the controller restarts`,
  );
  // The running nodes (in the select plugin's rank order) and restart-only settings, the rest read.
  const position = new Map(running.nodes.map((node, i) => [node.name, i]));
  const config: ClusterConfig = Object.freeze({
    ...read,
    clusterName: running.clusterName,
    control: running.control,
    auth: running.auth,
    plugins: { ...running.plugins, mpiDefault: read.plugins.mpiDefault },
    jobcomp: running.jobcomp,
    accounting: running.accounting,
    nodes: running.nodes,
    partitions: read.partitions.map((p) => ({ ...p, nodes: [...p.nodes].sort((a, b) => position.get(a)! - position.get(b)!) })),
  });
  forgetPartitionUpdates(ctl);
  ctl.options.config = config;
  ctl.table.setPartitions(config.partitions);
  ctl.nodesChanged();
  for (const note of notes) ctl.log.info(`reconfigure: ${note}`);
  ctl.log.info(`reconfigure: ${running.source} read again`);
  return { notes };
}

// Nodes come and go, or change, only with a restart (slurm.conf(5): "require restarting both
// the slurmctld daemon and the slurmd daemons").
function refuseNodeChange(running: ClusterConfig, read: ClusterConfig): void {
  const before = new Map(running.nodes.map((node) => [node.name, JSON.stringify(node)]));
  const after = new Map(read.nodes.map((node) => [node.name, JSON.stringify(node)]));
  const added = [...after.keys()].filter((name) => !before.has(name));
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const changed = [...after].filter(([name, node]) => before.has(name) && before.get(name) !== node).map(([name]) => name);
  const what = [
    added.length > 0 && `${added.join(',')} added`,
    removed.length > 0 && `${removed.join(',')} removed`,
    changed.length > 0 && `${changed.join(',')} changed`,
  ].filter(Boolean);
  if (what.length === 0) return;
  throw new UserError(
    `${running.source}: nodes ${what.join(', ')}: the controller must be restarted to take a change of nodes (as slurmctld must); the configuration is unchanged`,
  );
}

// A partition gone from the file while jobs still wait or run in it.
function refuseLostPartition(ctl: Controller, read: ClusterConfig): void {
  const kept = new Set(read.partitions.map((p) => p.name));
  const users = new Map<string, number[]>();
  for (const job of ctl.jobs.values()) {
    const name = job.record.partition;
    if (kept.has(name) || isFinished(job.record.job_state)) continue;
    users.set(name, [...(users.get(name) ?? []), job.record.job_id]);
  }
  const [name, jobs] = [...users][0] ?? [];
  if (name === undefined) return;
  throw new UserError(
    `${ctl.options.config.source}: partition ${name} is gone but jobs ${jobs!.slice(0, 10).join(',')}${jobs!.length > 10 ? ',...' : ''} are in it: cancel them or keep the partition; the configuration is unchanged`,
  );
}
