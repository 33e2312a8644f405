// A slurm.conf → ClusterConfig, in the three phases the YAML goes through (STYLE.md §3.6):
// read (lines, Include, records; syntax errors), describe (the same description object the
// YAML gives) and then the YAML's own shapes, rules and normaliser. Every problem comes out as
// one `file:line: what` line; all of them at once.
import { dirname, join } from 'node:path';
import { expandHostlist } from '../../core/hostlist.js';
import { UserErrorList } from '../../core/errors.js';
import { deepFreeze } from '../freeze.js';
import { IssueList, type Issue } from '../issues.js';
import { normalize } from '../normalize.js';
import { runRules } from '../rules.js';
import { checkShapes } from '../shapes.js';
import type { ClusterConfig, NodeState, SlurmConfFacts } from '../types.js';
import { describe, TOP_PATH_KEYS, type Described } from './describe.js';
import { readGresConf } from './gres-conf.js';
import { jobContainerOptions } from './job-container-conf.js';
import type { Where } from './lines.js';
import { NODE_FIELD_KEYS } from './node-lines.js';
import { PARTITION_FIELD_KEYS } from './partition-lines.js';
import { readConfFile, readConfText, type ConfText } from './read.js';

/** Reads the slurm.conf at `file` (absolute) and the files beside it. */
export function loadSlurmConf(file: string): ClusterConfig {
  return build(readConfFile(file), file);
}

/** The same for text in memory, as if read from `file` (side files are still looked for). */
export function parseSlurmConf(text: string, file: string): ClusterConfig {
  return build(readConfText(text, file), file);
}

function build(conf: ConfText, file: string): ClusterConfig {
  const errors = [...conf.errors];
  const fail = (at: Where, message: string) => errors.push(`${at.file}:${at.line}: ${message}`);
  if (errors.length > 0) throw new UserErrorList(errors);
  if (!conf.settings.has('ClusterName')) throw new UserErrorList([`${file}: ClusterName needs to be specified`]);
  const described = describe(conf, fail);
  const dir = dirname(file);
  const files = [...conf.files];
  const nodeNames = new Set(described.nodeLines.flatMap((n) => safeExpand(n.entry.name as string)));
  const containerType = conf.settings.get('JobContainerType')?.value.replace(/^job_container\//i, '').toLowerCase();
  if (containerType === 'tmpfs') {
    const jcFile = join(dir, 'job_container.conf');
    const options = jobContainerOptions(jcFile, nodeNames, errors);
    if (options) {
      files.push(jcFile);
      described.description.options = { job_container_tmpfs: options };
    }
  }
  const gresFile = join(dir, 'gres.conf');
  const gres = readGresConf(gresFile, errors);
  if (gres) files.push(gresFile);
  if (errors.length > 0) throw new UserErrorList(errors);

  const issues = new IssueList();
  const draft = checkShapes(described.description, issues);
  runRules(draft, issues);
  if (issues.size > 0) throw new UserErrorList([...new Set(issues.items.map((i) => locate(i, described, conf, file)))]);
  const config = normalize(draft, { source: file, baseDir: dir });
  addNodeExtras(config, described);
  applyDownNodes(config, described, errors);
  if (errors.length > 0) throw new UserErrorList(errors);
  const controllers = conf.records.filter((r) => r.kind === 'SlurmctldHost').map((r) => r.name);
  // The older spelling, used when there is no SlurmctldHost line (as Slurm does).
  const machine = conf.settings.get('ControlMachine')?.value;
  const addr = conf.settings.get('ControlAddr')?.value;
  if (controllers.length === 0 && machine !== undefined) controllers.push(addr === undefined ? machine : `${machine}(${addr})`);
  const facts: SlurmConfFacts = {
    settings: Object.fromEntries([...conf.settings].map(([k, s]) => [k, s.value])),
    files,
    ...(gres && { gres }),
    ...(controllers.length > 0 && { controllers }),
  };
  config.slurmConf = facts;
  return deepFreeze(config);
}

function safeExpand(expr: string): string[] {
  try {
    return expandHostlist(expr);
  } catch {
    return [];
  }
}

// Boards, TmpDisk, NodeHostname, NodeAddr and Port onto the expanded nodes, which the
// normaliser lays out line by line in file order.
function addNodeExtras(config: ClusterConfig, described: Described): void {
  let index = 0;
  for (const line of described.nodeLines) {
    const count = safeExpand(line.entry.name as string).length;
    for (let j = 0; j < count; j++) {
      const node = config.nodes[index + j]!;
      const x = line.extras;
      node.boards = x.boards;
      node.tmpDisk = x.tmpDisk;
      if (x.hostnames) node.hostname = x.hostnames[j]!;
      if (x.addrs) node.nodeAddr = x.addrs[j]!;
      if (x.ports) node.slurmdPort = x.ports[j]!;
    }
    index += count;
  }
}

const DOWN_STATES: Record<string, NodeState> = { DOWN: 'DOWN', DRAIN: 'DRAIN', FAIL: 'DRAIN', FAILING: 'DRAIN', UNKNOWN: 'UNKNOWN' };

function applyDownNodes(config: ClusterConfig, described: Described, errors: string[]): void {
  const byName = new Map(config.nodes.map((n) => [n.name, n]));
  for (const d of described.downNodes) {
    const state = DOWN_STATES[d.state.toUpperCase()];
    if (state === undefined) {
      errors.push(`${d.at.file}:${d.at.line}: DownNodes=${d.names}: invalid State "${d.state}" (DOWN, DRAIN, FAIL, FAILING or UNKNOWN)`);
      continue;
    }
    for (const name of safeExpand(d.names)) {
      const node = byName.get(name);
      if (node === undefined) {
        errors.push(`${d.at.file}:${d.at.line}: DownNodes: node ${name} is not defined`);
        continue;
      }
      node.state = state;
      if (d.reason !== undefined) node.reason = d.reason;
    }
  }
}

// An issue of the shared checks → the line of the slurm.conf record or key it concerns; a
// mention of another entry (`already defined by nodes.0`) becomes that entry's file and line.
function locate(issue: Issue, described: Described, conf: ConfText, file: string): string {
  const where = (at: Where) => `${at.file}:${at.line}`;
  const message = issue.message.replace(/\b(nodes|partitions)\.(\d+)\b/g, (text, list: string, i: string) => {
    const at = (list === 'nodes' ? described.nodeLines : described.partitionLines)[Number(i)]?.at;
    return at ? where(at) : text;
  });
  issue = { ...issue, message };
  const [section, index, field] = issue.path;
  if (section === 'nodes' && typeof index === 'number') {
    const line = described.nodeLines[index]!;
    const key = field === undefined ? '' : `${NODE_FIELD_KEYS[String(field)] ?? field}: `;
    return `${line.at.file}:${line.at.line}: NodeName=${String(line.entry.name)}: ${key}${issue.message}`;
  }
  if (section === 'partitions' && typeof index === 'number') {
    const line = described.partitionLines[index]!;
    const key = field === undefined ? '' : `${PARTITION_FIELD_KEYS[String(field)] ?? field}: `;
    return `${line.at.file}:${line.at.line}: PartitionName=${String(line.entry.name)}: ${key}${issue.message}`;
  }
  if (section === 'options') return `${join(dirname(file), 'job_container.conf')}: ${issue.path.slice(2).join('.')}: ${issue.message}`;
  const key = TOP_PATH_KEYS[issue.path.slice(0, 2).join('.')];
  const setting = key === undefined ? undefined : conf.settings.get(key);
  if (setting) return `${setting.at.file}:${setting.at.line}: ${key}: ${issue.message}`;
  return `${file}: ${key ? `${key}: ` : ''}${issue.message}`;
}
