// `tscontrol show config`: every key scontrol 22.05 prints, in its order and layout, with the
// value in force. Settings tslurm models come from the cluster (YAML or slurm.conf) as tslurm
// uses them; other keys a slurm.conf sets are shown as written (in scontrol's units); the rest
// show Slurm's defaults. Then the MPI section, as scontrol prints it.
import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { formatSlurmDate } from '../../core/time-string.js';
import { TOOLKIT_VERSION } from '../../os/version.js';
import { DEFAULT_SLURMD_TIMEOUT, DEFAULT_TREE_WIDTH, type ClusterConfig } from '../../config/types.js';
import { resolveStateDir } from '../../config/state-dir.js';
import { killWaitSeconds, minJobAgeSeconds } from '../../config/kill-wait.js';
import { searchPathFor } from '../../plugin-host/create.js';
import { MPI_CONFIG_KEYS, SHOW_CONFIG_KEYS, type ConfigUnit } from './config-table.js';

export interface ConfigListing {
  entries: Array<[string, string]>;
  mpi: Array<[string, string]>;
}

/** The listing for `config` (env: TSLURM_KILL_WAIT and the state directory's variables). */
export function configListing(config: ClusterConfig, env: NodeJS.ProcessEnv): ConfigListing {
  const written = slurmConfValues(config);
  const inForce = modelled(config, env);
  const entries: Array<[string, string]> = [];
  for (const [key, fallback, unit] of SHOW_CONFIG_KEYS) {
    const value = inForce.get(key) ?? withUnit(written.get(key.toLowerCase()), unit) ?? withUnit(fallback, unit) ?? '';
    // scontrol leaves SelectTypeParameters out when no consumable-resource plugin uses it.
    if (key === 'SelectTypeParameters' && value === '') continue;
    entries.push([key, value]);
    // A slurm.conf's backup controllers follow the primary, as scontrol lists them.
    if (key === 'SlurmctldHost[0]') {
      for (const [i, host] of (config.slurmConf?.controllers ?? []).slice(1).entries()) entries.push([`SlurmctldHost[${i + 1}]`, localHost(host)]);
    }
  }
  const mpi = MPI_CONFIG_KEYS.map(([key, fallback]): [string, string] => [key, written.get(key.toLowerCase()) ?? fallback]);
  return { entries, mpi };
}

/** Kept for callers that want only the main list. */
export function configEntries(config: ClusterConfig, env: NodeJS.ProcessEnv): Array<[string, string]> {
  return configListing(config, env).entries;
}

export function formatConfig(listing: ConfigListing, now: Date): string {
  const { entries, mpi } = listing;
  const line = ([key, value]: readonly [string, string]) => `${key.padEnd(23)} = ${value}`;
  let text = `Configuration data as of ${formatSlurmDate(Math.floor(now.getTime() / 1000))}\n${entries.map(line).join('\n')}\n`;
  if (mpi.length > 0) text += `\nMPI Plugins Configuration:\n${mpi.map(line).join('\n')}\n`;
  return text;
}

// The slurm.conf's own keys, by lower-case name (scontrol's UsePam is slurm.conf's UsePAM).
function slurmConfValues(config: ClusterConfig): Map<string, string> {
  const settings = config.slurmConf?.settings ?? {};
  const values = new Map(Object.entries(settings).map(([k, v]) => [k.toLowerCase(), v]));
  const prolog = values.get('prologflags');
  // Contain implies Alloc; scontrol lists both.
  if (prolog && /contain/i.test(prolog) && !/alloc/i.test(prolog)) values.set('prologflags', `Alloc,${prolog}`);
  return values;
}

// The settings tslurm itself applies, whatever a slurm.conf says.
function modelled(config: ClusterConfig, env: NodeJS.ProcessEnv): Map<string, string> {
  const p = config.plugins;
  const stateDir = resolveStateDir(config, env);
  const consumable = p.select === 'select/cons_tres' || p.select === 'select/cons_res';
  const values: Array<[string, string | undefined]> = [
    ['AuthType', p.auth],
    ['BOOT_TIME', bootTime(stateDir)],
    ['ClusterName', config.clusterName],
    // A job that can never run is refused at submission (README: Differences from Slurm).
    ['EnforcePartLimits', 'ALL'],
    ['JobContainerType', p.jobContainer],
    ['KillWait', `${killWaitSeconds(config, env)} sec`],
    ['MaxNodeCount', String(config.nodes.length)],
    ['MinJobAge', `${minJobAgeSeconds(config, env)} sec`],
    // scontrol prints MpiDefault without its `mpi/`.
    ['MpiDefault', p.mpiDefault.replace(/^mpi\//, '')],
    ['NEXT_JOB_ID', nextJobId(stateDir)],
    ['PluginDir', searchPathFor(config, env).map((d) => d.dir.replace(/(.)\/+$/, '$1')).join(':')],
    ['PreemptMode', config.preempt.mode],
    ['PreemptType', config.preempt.type],
    ['ProctrackType', p.proctrack],
    ['SchedulerType', p.sched],
    ['SelectType', p.select],
    ['SelectTypeParameters', consumable ? 'CR_CORE_MEMORY' : ''],
    ['SlurmctldHost[0]', controllerHost(config)],
    ['SlurmctldPort', config.control.port === undefined ? undefined : String(config.control.port)],
    ['SlurmdTimeout', `${config.control.slurmdTimeout ?? DEFAULT_SLURMD_TIMEOUT} sec`],
    ['SLURM_CONF', config.source],
    ['SLURM_VERSION', TOOLKIT_VERSION],
    ['StateSaveLocation', stateDir],
    ['TaskEpilog', config.taskEpilog],
    ['TaskProlog', config.taskProlog],
    ['TreeWidth', String(config.control.treeWidth ?? DEFAULT_TREE_WIDTH)],
  ];
  return new Map(values.filter((e): e is [string, string] => e[1] !== undefined));
}

function withUnit(value: string | undefined, unit: ConfigUnit | undefined): string | undefined {
  if (value === undefined || unit === undefined) return value;
  if (unit === 'bool') return /^(yes|true|1)$/i.test(value) ? 'Yes' : 'No';
  if (unit === 'user') return value === 'root' ? 'root(0)' : value;
  return `${value} ${{ sec: 'sec', min: 'min', usec: 'usec', percent: 'percent', rate: 'nodes/min' }[unit]}`;
}

// SlurmctldHost[0]: the YAML's control address, else the slurm.conf's line with `localhost`
// read as this host's name (as slurmctld does), else this host (the controller runs here).
function controllerHost(config: ClusterConfig): string {
  if (config.control.host !== undefined) return config.control.host;
  const first = config.slurmConf?.controllers?.[0];
  return first === undefined ? hostname() : localHost(first);
}

function localHost(line: string): string {
  return line.replace(/^localhost(?=\(|$)/i, hostname());
}

// When the controller started (its pid file); without one, now: the next command starts it.
function bootTime(stateDir: string): string {
  let seconds = Math.floor(Date.now() / 1000);
  try {
    seconds = Math.floor(statSync(path.join(stateDir, 'tsctld.pid')).mtimeMs / 1000);
  } catch {
    // no controller running
  }
  return formatSlurmDate(seconds);
}

function nextJobId(stateDir: string): string {
  try {
    const next = Number.parseInt(readFileSync(path.join(stateDir, 'next_job_id'), 'utf8'), 10);
    if (Number.isSafeInteger(next) && next > 0) return String(next);
  } catch {
    // no job submitted yet
  }
  return '1';
}
