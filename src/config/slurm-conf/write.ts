// ClusterConfig → slurm.conf text (and job_container.conf text for job_container/tmpfs), in
// the sectioned form of `scontrol write config`. Reading the text back with the slurm.conf
// reader describes the same cluster, apart from what a slurm.conf cannot carry for tslurm:
// daemon-mode addresses, the state directory and the auth key file are written as Slurm's
// keys for its own daemons (SlurmctldHost, StateSaveLocation, NodeAddr, Port) and read back
// as shown-only; other plugins' option blocks have no slurm.conf key and are left out.
import { compressHostlist } from '../../core/hostlist.js';
import { INFINITE, NO_VAL } from '../../core/slurm-constants.js';
import { minsToTimeStr } from '../../core/time-string.js';
import type { ClusterConfig, NodeConfig, PartitionConfig } from '../types.js';
import { purgeAfterText } from '../purge-after.js';
import { DEFAULT_SHARE_COUNT, overSubscribeText } from '../oversubscribe.js';

export interface WrittenConf {
  slurmConf: string;
  /** job_container.conf, for a job_container/tmpfs cluster with options. */
  jobContainerConf?: string;
}

const MODEL_KEYS = new Set(
  `ClusterName SlurmctldHost ControlMachine ControlAddr SlurmctldPort StateSaveLocation AuthType PluginDir SelectType SchedulerType
ProctrackType MpiDefault JobContainerType PreemptType PreemptMode SlurmdTimeout TreeWidth PurgeJobAfter
JobAcctGatherFrequency JobCompType JobCompLoc TaskProlog TaskEpilog`.split(/\s+/),
);

/** The files for `config`, stamped with `when` (scontrol's header line). */
export function writeSlurmConf(config: ClusterConfig, when: string): WrittenConf {
  const out: string[] = [];
  const banner = `#  Configuration file for Slurm - ${when}  #`;
  out.push('#'.repeat(banner.length), banner, '#'.repeat(banner.length), `# Written by tscontrol write config from ${config.source}`);
  const p = config.plugins;
  const kept = config.slurmConf?.settings ?? {};
  section(out, 'CONTROL', [
    ['ClusterName', config.clusterName],
    ...(config.slurmConf?.controllers ?? (config.control.host ? [config.control.host] : [])).map((h): [string, string] => ['SlurmctldHost', h]),
    ['SlurmctldPort', config.control.port === undefined ? kept['SlurmctldPort'] : String(config.control.port)],
    ['StateSaveLocation', config.control.stateDir ?? kept['StateSaveLocation']],
    ['AuthType', config.slurmConf && p.auth === 'auth/none' ? kept['AuthType'] : p.auth],
    ['PluginDir', p.pluginDirs.length > 0 ? p.pluginDirs.join(':') : undefined],
  ]);
  section(out, 'SCHEDULING & ALLOCATION', [
    ['SelectType', p.select],
    ['SchedulerType', p.sched],
    ['PreemptType', config.preempt.type],
    ['PreemptMode', config.preempt.mode],
  ]);
  section(out, 'PROCESS TRACKING & TASKS', [
    // A default the host chose is left to the host that reads the file back.
    ['ProctrackType', p.proctrackFallback === undefined ? p.proctrack : undefined],
    ['MpiDefault', p.mpiDefault.replace(/^mpi\//, '')],
    ['JobContainerType', p.jobContainer],
    ['TaskProlog', config.taskProlog],
    ['TaskEpilog', config.taskEpilog],
  ]);
  section(out, 'LOGGING AND ACCOUNTING', [
    ['JobAcctGatherFrequency', config.acctGatherFrequency === undefined ? undefined : String(config.acctGatherFrequency)],
    ['JobCompType', config.jobcomp?.type],
    ['JobCompLoc', config.jobcomp?.loc],
  ]);
  section(out, 'TIMERS', [
    ['SlurmdTimeout', config.control.slurmdTimeout === undefined ? undefined : String(config.control.slurmdTimeout)],
    ['TreeWidth', config.control.treeWidth === undefined ? undefined : String(config.control.treeWidth)],
    ['PurgeJobAfter', config.accounting?.purgeAfter === undefined ? undefined : purgeAfterText(config.accounting.purgeAfter)],
  ]);
  const others = Object.entries(kept).filter(([key]) => !MODEL_KEYS.has(key));
  if (others.length > 0) section(out, 'OTHER (kept from the slurm.conf read)', others);
  out.push('#', header('NODES'));
  out.push(...nodeLines(config.nodes));
  out.push('#', header('PARTITIONS'));
  out.push(...config.partitions.map((part) => partitionLine(part, config)));
  const written: WrittenConf = { slurmConf: `${out.join('\n')}\n` };
  const tmpfs = config.options['job_container_tmpfs'] as Record<string, unknown> | undefined;
  if (p.jobContainer === 'job_container/tmpfs' && tmpfs && Object.keys(tmpfs).length > 0) written.jobContainerConf = jobContainerConf(tmpfs);
  return written;
}

function header(title: string): string {
  const width = 46;
  const left = Math.floor((width - title.length) / 2);
  const box = '#'.repeat(width + 2);
  return `${box}\n#${' '.repeat(left)}${title}${' '.repeat(width - left - title.length)}#\n${box}`;
}

function section(out: string[], title: string, pairs: ReadonlyArray<readonly [string, string | undefined]>): void {
  if (pairs.every(([, value]) => value === undefined)) return;
  out.push('#', header(title));
  for (const [key, value] of pairs) if (value !== undefined) out.push(`${key}=${quote(value)}`);
}

// Values with blanks are quoted (the parser takes "..." whole); an empty one too.
function quote(value: string): string {
  return value === '' || /\s/.test(value) ? `"${value}"` : value;
}

// Consecutive nodes that differ only in name (and port) share a line, as a hostlist.
function nodeLines(nodes: readonly NodeConfig[]): string[] {
  const lines: string[] = [];
  let group: NodeConfig[] = [];
  const flush = () => {
    if (group.length > 0) lines.push(nodeLine(group));
    group = [];
  };
  for (const node of nodes) {
    const last = group.at(-1);
    if (last && !sameButName(last, node)) flush();
    group.push(node);
  }
  flush();
  return lines;
}

function attributes(node: NodeConfig): string {
  const { name: _name, port: _port, slurmdPort: _slurmdPort, ...rest } = node;
  return JSON.stringify(rest);
}

function sameButName(a: NodeConfig, b: NodeConfig): boolean {
  return attributes(a) === attributes(b);
}

function nodeLine(group: readonly NodeConfig[]): string {
  const n = group[0]!;
  const pairs: Array<[string, string | undefined]> = [
    ['NodeName', compressHostlist(group.map((g) => g.name))],
    ['NodeHostname', n.hostname],
    ['NodeAddr', n.nodeAddr ?? n.addr],
    ['Port', ports(group)],
    ['CPUs', String(n.cpus)],
    ['Boards', n.boards === undefined || n.boards === 1 ? undefined : String(n.boards)],
    ['Sockets', String(n.sockets)],
    ['CoresPerSocket', String(n.coresPerSocket)],
    ['ThreadsPerCore', String(n.threadsPerCore)],
    ['RealMemory', String(n.realMemory)],
    ['TmpDisk', n.tmpDisk ? String(n.tmpDisk) : undefined],
    ['Gres', n.gres.length > 0 ? n.gres.map((g) => [g.name, g.type, g.count].filter((x) => x !== undefined).join(':')).join(',') : undefined],
    ['Feature', n.features.length > 0 ? n.features.join(',') : undefined],
    ['Weight', n.weight === 1 ? undefined : String(n.weight)],
    ['State', n.state],
    ['Reason', n.reason],
  ];
  return pairs.flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${quote(v)}`])).join(' ');
}

function ports(group: readonly NodeConfig[]): string | undefined {
  const list = group.map((g) => g.slurmdPort ?? g.port);
  if (list.every((p) => p === undefined)) return undefined;
  if (list.some((p) => p === undefined)) return undefined;
  if (list.every((p) => p === list[0])) return String(list[0]);
  return compressHostlist(list.map(String));
}

function partitionLine(part: PartitionConfig, config: ClusterConfig): string {
  const all = part.nodes.length === config.nodes.length && part.nodes.length > 0;
  const pairs: Array<[string, string | undefined]> = [
    ['PartitionName', part.name],
    ['Nodes', part.nodes.length === 0 ? undefined : all ? 'ALL' : compressHostlist(part.nodes)],
    ['Default', part.isDefault ? 'YES' : 'NO'],
    ['MaxTime', part.maxTime === INFINITE ? 'UNLIMITED' : minsToTimeStr(part.maxTime)],
    ['DefaultTime', part.defaultTime === NO_VAL ? undefined : part.defaultTime === INFINITE ? 'UNLIMITED' : minsToTimeStr(part.defaultTime)],
    ['MaxNodes', part.maxNodes === INFINITE ? 'UNLIMITED' : String(part.maxNodes)],
    ['MinNodes', String(part.minNodes)],
    ['State', part.state],
    // The count only when it is not slurm.conf's default (YES and FORCE alone mean 4).
    ['OverSubscribe', part.shareCount === DEFAULT_SHARE_COUNT ? part.oversubscribe : overSubscribeText(part)],
    ['PriorityTier', String(part.priorityTier)],
    // A partition's mode is the cluster's unless it says otherwise.
    ['PreemptMode', part.preemptMode === config.preempt.mode ? undefined : part.preemptMode],
  ];
  return pairs.flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${quote(v)}`])).join(' ');
}

function jobContainerConf(options: Record<string, unknown>): string {
  const lines = ['# job_container.conf for job_container/tmpfs, written by tscontrol write config'];
  if (typeof options['auto_base_path'] === 'boolean') lines.push(`AutoBasePath=${options['auto_base_path'] ? 'true' : 'false'}`);
  if (typeof options['base_path'] === 'string') lines.push(`BasePath=${options['base_path']}`);
  if (Array.isArray(options['dirs'])) lines.push(`Dirs=${options['dirs'].join(',')}`);
  if (typeof options['init_script'] === 'string') lines.push(`InitScript=${options['init_script']}`);
  if (typeof options['shared'] === 'boolean') lines.push(`Shared=${options['shared'] ? 'true' : 'false'}`);
  return `${lines.join('\n')}\n`;
}
