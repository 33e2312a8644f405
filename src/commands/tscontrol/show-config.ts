// `tscontrol show config`: scontrol's `Key = Value` listing for the settings tslurm really
// has, under the names and in the order scontrol 22.05 prints them. Keys for features tslurm
// does not have are left out rather than filled with invented values.
import { formatSlurmDate } from '../../core/time-string.js';
import { TOOLKIT_VERSION } from '../../core/version.js';
import type { ClusterConfig } from '../../config/types.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { searchPathFor } from '../../plugin-host/create.js';

/** The settings, in scontrol's order. */
export function configEntries(config: ClusterConfig, env: NodeJS.ProcessEnv): Array<[string, string]> {
  const p = config.plugins;
  const consumable = p.select === 'select/cons_tres' || p.select === 'select/cons_res';
  const entries: Array<[string, string | undefined]> = [
    ['AuthType', p.auth],
    ['ClusterName', config.clusterName],
    // A job that can never run is refused at submission (README: Differences from Slurm).
    ['EnforcePartLimits', 'ALL'],
    ['JobContainerType', p.jobContainer],
    ['KillWait', `${killWaitSeconds(env)} sec`],
    ['MaxNodeCount', String(config.nodes.length)],
    // scontrol prints MpiDefault without its `mpi/`.
    ['MpiDefault', p.mpiDefault.replace(/^mpi\//, '')],
    ['PluginDir', searchPathFor(config, env).map((d) => d.dir.replace(/(.)\/+$/, '$1')).join(':')],
    ['ProctrackType', p.proctrack],
    ['SchedulerType', p.sched],
    ['SelectType', p.select],
    ['SelectTypeParameters', consumable ? 'CR_CORE_MEMORY' : undefined],
    ['SlurmctldHost[0]', config.control.host],
    ['SlurmctldPort', config.control.port === undefined ? undefined : String(config.control.port)],
    ['SLURM_CONF', config.source],
    ['SLURM_VERSION', TOOLKIT_VERSION],
    ['StateSaveLocation', resolveStateDir(config, env)],
  ];
  return entries.filter((e): e is [string, string] => e[1] !== undefined);
}

export function formatConfig(entries: ReadonlyArray<[string, string]>, now: Date): string {
  const lines = entries.map(([key, value]) => `${key.padEnd(23)} = ${value}`);
  return `Configuration data as of ${formatSlurmDate(Math.floor(now.getTime() / 1000))}\n${lines.join('\n')}\n`;
}

// TSLURM_KILL_WAIT, default 30 (the rule tsrun's killWaitSeconds() applies; kept here so
// tscontrol does not load tsrun's launcher).
function killWaitSeconds(env: NodeJS.ProcessEnv): number {
  const value = Number.parseFloat(env.TSLURM_KILL_WAIT ?? '');
  return Number.isFinite(value) && value >= 0 ? value : 30;
}
