// Phase 2: settings and records → the cluster description the YAML would give (the same
// object shape, so the same shapes, rules and normaliser check it), plus what slurm.conf
// alone carries. Plugin keys map to the plugins section; keys that would make tslurm dial
// hosts or write where Slurm writes (SlurmctldHost, StateSaveLocation, NodeAddr) are kept and
// shown but not used: a slurm.conf cluster runs on this host, in tslurm's own state directory.
import { withDefaults } from './defaults-merge.js';
import type { Where } from './lines.js';
import { nodeLine, type NodeLine } from './node-lines.js';
import { num } from './numbers.js';
import { partitionLine, withoutGang, type PartitionLine } from './partition-lines.js';
import type { ConfText } from './read.js';

export interface Described {
  description: Record<string, unknown>;
  nodeLines: NodeLine[];
  partitionLines: PartitionLine[];
  /** DownNodes lines: names, state and reason to set after normalising. */
  downNodes: Array<{ names: string; state: string; reason?: string; at: Where }>;
}

/** Description path (`plugins.select`) → the slurm.conf key it came from. */
export const TOP_PATH_KEYS: Record<string, string> = {
  cluster: 'ClusterName',
  'plugins.select': 'SelectType',
  'plugins.mpi_default': 'MpiDefault',
  'plugins.job_container': 'JobContainerType',
  'plugins.proctrack': 'ProctrackType',
  'plugins.sched': 'SchedulerType',
  'plugins.auth': 'AuthType',
  'plugins.plugin_dirs': 'PluginDir',
  'plugins.jobcomp': 'JobCompType',
  'plugins.jobcomp_loc': 'JobCompLoc',
  acct_gather_frequency: 'JobAcctGatherFrequency',
  task_prolog: 'TaskProlog',
  task_epilog: 'TaskEpilog',
  'preempt.type': 'PreemptType',
  'preempt.mode': 'PreemptMode',
  'control.slurmd_timeout': 'SlurmdTimeout',
  'control.tree_width': 'TreeWidth',
  'accounting.purge_after': 'PurgeJobAfter',
};

// Slurm's own default where it differs from tslurm's and tslurm has the plugin.
const SLURM_DEFAULTS: Record<string, string> = { SchedulerType: 'sched/backfill' };

// AuthType names a plugin tslurm has only for these; auth/munge and others are kept and
// shown, and the cluster runs with tslurm's default (processes of one user on one host).
const TSLURM_AUTH = new Set(['auth/none', 'auth/hmac', 'none', 'hmac']);

export function describe(conf: ConfText, fail: (at: Where, message: string) => void): Described {
  const get = (key: string) => conf.settings.get(key)?.value ?? SLURM_DEFAULTS[key];
  const description: Record<string, unknown> = {};
  const set = (target: Record<string, unknown>, field: string, value: unknown) => {
    if (value !== undefined) target[field] = value;
  };
  set(description, 'cluster', get('ClusterName'));
  const plugins: Record<string, unknown> = {};
  set(plugins, 'select', get('SelectType'));
  set(plugins, 'mpi_default', get('MpiDefault'));
  set(plugins, 'job_container', get('JobContainerType'));
  set(plugins, 'proctrack', get('ProctrackType'));
  set(plugins, 'sched', get('SchedulerType'));
  set(plugins, 'jobcomp', get('JobCompType'));
  set(plugins, 'jobcomp_loc', get('JobCompLoc'));
  // Searched after tslurm's own plugins, like TSLURM_PLUGIN_DIR; a Slurm PluginDir holds no
  // .js modules, so naming one changes nothing.
  set(plugins, 'plugin_dirs', get('PluginDir'));
  const auth = get('AuthType');
  if (auth !== undefined && TSLURM_AUTH.has(auth.toLowerCase())) plugins.auth = auth;
  description.plugins = plugins;
  set(description, 'acct_gather_frequency', get('JobAcctGatherFrequency'));
  set(description, 'task_prolog', get('TaskProlog'));
  set(description, 'task_epilog', get('TaskEpilog'));
  const preempt: Record<string, unknown> = {};
  set(preempt, 'type', get('PreemptType'));
  set(preempt, 'mode', withoutGang(get('PreemptMode')));
  if (Object.keys(preempt).length > 0) description.preempt = preempt;
  const control: Record<string, unknown> = {};
  set(control, 'slurmd_timeout', num(get('SlurmdTimeout')));
  set(control, 'tree_width', num(get('TreeWidth')));
  if (Object.keys(control).length > 0) description.control = control;
  // slurmdbd.conf's key in Slurm; tslurm's store has no slurmdbd.conf, so slurm.conf carries it.
  const purge = get('PurgeJobAfter');
  if (purge !== undefined) description.accounting = { purge_after: purge };

  const ofKind = (kind: string) => conf.records.filter((r) => r.kind === kind);
  for (const r of ofKind('NodeName').filter((r) => r.name.toUpperCase() === 'DEFAULT')) {
    for (const key of ['NodeHostname', 'NodeAddr', 'BcastAddr']) {
      if (r.keys.has(key)) fail(r.at, `${key} not allowed with NodeName=DEFAULT`);
    }
  }
  const nodeLines = withDefaults(ofKind('NodeName'))
    .map((r) => nodeLine(r, (message) => fail(r.at, message)))
    .filter((n): n is NodeLine => n !== undefined);
  const partitionLines = withDefaults(ofKind('PartitionName')).map(partitionLine);
  description.nodes = nodeLines.map((n) => n.entry);
  description.partitions = partitionLines.map((p) => p.entry);
  const downNodes = ofKind('DownNodes').map((r) => ({
    names: r.name,
    state: r.keys.get('State') ?? 'DOWN',
    ...(r.keys.has('Reason') && { reason: r.keys.get('Reason')! }),
    at: r.at,
  }));
  return { description, nodeLines, partitionLines, downNodes };
}
