// Phase 3 of loading: rules that look across fields and entries. Each is a small function
// that reads the Draft and records issues. They run even when some values were bad, using
// only the values that parsed, and stay quiet where a bad value would make them guess.
import { compressHostlist } from '../core/hostlist.js';
import { INFINITE, NO_VAL } from '../core/slurm-constants.js';
import type { IssueList } from './issues.js';
import { ALL_NODES } from './schema.js';
import type { Draft } from './shapes.js';
import { topologyOf, topologyProblem } from './topology.js';

type Rule = (draft: Draft, issues: IssueList) => void;

const atLeastOneNode: Rule = (draft, issues) => {
  if (draft.nodeCount === 0) issues.add(['nodes'], 'no nodes defined (at least one is required)');
};

const atLeastOnePartition: Rule = (draft, issues) => {
  if (draft.partitionCount === 0) issues.add(['partitions'], 'no partitions defined (at least one is required)');
};

const LAYOUT_KEYS = ['cpus', 'sockets', 'cores', 'threads'];

const cpusMatchLayout: Rule = (draft, issues) => {
  for (const { index, entry, bad } of draft.nodes) {
    if (LAYOUT_KEYS.some((k) => bad.has(k))) continue;
    const problem = topologyProblem(topologyOf(entry));
    if (problem) issues.add(['nodes', index, entry.cpus === undefined ? 'sockets' : 'cpus'], problem);
  }
};

// A multi-node entry with `address: host:port` gives its nodes consecutive ports.
const portsInRange: Rule = (draft, issues) => {
  for (const { index, entry } of draft.nodes) {
    const first = entry.address?.port;
    if (first === undefined || entry.name === undefined) continue;
    const last = first + entry.name.length - 1;
    if (last > 65535) {
      issues.add(['nodes', index, 'address'], `ports ${first}-${last} for ${entry.name.length} nodes go past 65535`);
    }
  }
};

const uniqueGres: Rule = (draft, issues) => {
  for (const { index, entry } of draft.nodes) {
    const seen = new Set<string>();
    for (const [i, g] of (entry.gres ?? []).entries()) {
      const key = g.type === undefined ? g.name : `${g.name}:${g.type}`;
      if (seen.has(key)) issues.add(['nodes', index, 'gres', i], `gres ${key} is listed twice`);
      seen.add(key);
    }
  }
};

// Slurm keys nodes by name, so a name may be defined once, across all entries.
const uniqueNodeNames: Rule = (draft, issues) => {
  const owner = new Map<string, number>();
  for (const { index, entry } of draft.nodes) {
    const clashes = new Map<number, string[]>();
    for (const name of entry.name ?? []) {
      const first = owner.get(name);
      if (first === undefined) owner.set(name, index);
      else clashes.set(first, [...(clashes.get(first) ?? []), name]);
    }
    for (const [first, names] of clashes) {
      const which = names.length === 1 ? `node ${names[0]} is` : `nodes ${compressHostlist(names)} are`;
      const where = first === index ? 'listed twice in this entry' : `already defined by nodes.${first}`;
      issues.add(['nodes', index, 'name'], `${which} ${where}`);
    }
  }
};

const uniquePartitionNames: Rule = (draft, issues) => {
  const owner = new Map<string, number>();
  for (const { index, entry } of draft.partitions) {
    if (entry.name === undefined) continue;
    const first = owner.get(entry.name);
    if (first === undefined) owner.set(entry.name, index);
    else issues.add(['partitions', index, 'name'], `partition ${entry.name} is already defined by partitions.${first}`);
  }
};

const partitionNodesExist: Rule = (draft, issues) => {
  // While some node entry has no usable name, "unknown node" could be wrong: say nothing.
  if (draft.nodeCount === undefined || draft.nodes.some(({ entry }) => entry.name === undefined)) return;
  const known = new Set(draft.nodes.flatMap(({ entry }) => entry.name ?? []));
  for (const { index, entry } of draft.partitions) {
    const named = (entry.nodes ?? []).flatMap((part) => (part === ALL_NODES ? [] : part));
    const unknown = named.filter((n) => !known.has(n));
    if (unknown.length === 0) continue;
    const which = unknown.length === 1 ? `unknown node ${unknown[0]}` : `unknown nodes ${compressHostlist(unknown)}`;
    issues.add(['partitions', index, 'nodes'], which);
  }
};

const oneDefaultPartition: Rule = (draft, issues) => {
  const defaults = draft.partitions.filter(({ entry }) => entry.default === true);
  const first = defaults[0];
  for (const { index } of defaults.slice(1)) {
    const name = first!.entry.name === undefined ? '' : `, ${first!.entry.name},`;
    const message = `only one partition may be the default (partitions.${first!.index}${name} already is)`;
    issues.add(['partitions', index, 'default'], message);
  }
};

const partitionLimitsAgree: Rule = (draft, issues) => {
  for (const { index, entry } of draft.partitions) {
    const max = entry.max_time ?? INFINITE;
    const dflt = entry.default_time ?? NO_VAL;
    if (dflt !== NO_VAL && max !== INFINITE && (dflt === INFINITE || dflt > max)) {
      issues.add(['partitions', index, 'default_time'], `default_time (${show(dflt)}) exceeds max_time (${show(max)})`);
    }
    const maxNodes = entry.max_nodes ?? INFINITE;
    if (entry.min_nodes !== undefined && maxNodes !== INFINITE && entry.min_nodes > maxNodes) {
      issues.add(['partitions', index, 'min_nodes'], `min_nodes (${entry.min_nodes}) exceeds max_nodes (${maxNodes})`);
    }
  }
};

const authTypeAgrees: Rule = (draft, issues) => {
  const a = draft.top.auth?.type;
  const b = draft.top.plugins?.auth;
  if (a !== undefined && b !== undefined && a !== b) {
    issues.add(['plugins', 'auth'], `${b} contradicts auth.type (${a}); give the auth plugin in one place`);
  }
};

// The key file belongs in auth.key_file, where a relative path is resolved against the file.
const authKeyInOnePlace: Rule = (draft, issues) => {
  const type = draft.top.auth?.type ?? draft.top.plugins?.auth;
  if (type === undefined) return;
  const block = type.replace('/', '_');
  const options = draft.top.options?.[block];
  if (typeof options === 'object' && options !== null && 'key_file' in options) {
    issues.add(['options', block, 'key_file'], 'give the key file as auth.key_file');
  }
};

function show(minutes: number): string {
  return minutes === INFINITE ? 'UNLIMITED' : `${minutes} min`;
}

const RULES: readonly Rule[] = [
  atLeastOneNode,
  atLeastOnePartition,
  cpusMatchLayout,
  portsInRange,
  uniqueGres,
  uniqueNodeNames,
  uniquePartitionNames,
  partitionNodesExist,
  oneDefaultPartition,
  partitionLimitsAgree,
  authTypeAgrees,
  authKeyInOnePlace,
];

/** Runs every rule over the draft. */
export function runRules(draft: Draft, issues: IssueList): void {
  for (const rule of RULES) rule(draft, issues);
}
