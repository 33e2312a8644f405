// `tscontrol show node [NODES]` and `show partition [NAME]`: scontrol's records, or its
// "not found" line (on standard output, exit status 1, as scontrol 22.05 does).
import { expandHostlist } from '../../core/hostlist.js';
import { errnoValue, slurm_strerror, type ErrnoName } from '../../core/errno.js';
import { NODE_STATE_BASE, NODE_STATE_FUTURE } from '../../plugin-api/records.js';
import type { ClusterInfo, NodeInfo, PartitionInfo } from '../../protocol/node-info.js';
import { renderKvRecord } from '../../cli/format/kv-record.js';
import { nodeRecordLines } from '../../cli/format/scontrol-node.js';
import { partitionRecordLines } from '../../cli/format/scontrol-partition.js';
import { dataParserDocument, dataParserText, nodeToData, partitionToData, type DataError } from '../../cli/format/data-parser.js';

export interface ShowOptions {
  oneliner: boolean;
  json: boolean;
  yaml?: boolean;
  /** -F/--future: FUTURE nodes too. */
  future: boolean;
  /** -Q: no "not found" lines (the exit status still says so). */
  quiet?: boolean;
}

export interface ShowResult {
  stdout: string;
  exitCode: number;
}

interface Lookup<T> {
  found: T[];
  missing: string[];
  /** Records and "not found" lines, in the order the names were given. */
  text: string;
}

export async function showNodes(info: ClusterInfo, arg: string | undefined, opts: ShowOptions): Promise<ShowResult> {
  const visible = info.nodes.filter((n) => opts.future || (n.nodeState & NODE_STATE_BASE) !== NODE_STATE_FUTURE);
  const byName = new Map(visible.map((n) => [n.name, n]));
  const names = arg === undefined ? visible.map((n) => n.name) : namesOf(arg);
  const lookup = lookUp(names, byName, (n) => renderKvRecord(nodeRecordLines(n), opts.oneliner), (name) => (opts.quiet ? '' : `Node ${name} not found\n`));
  return result(lookup, opts, 'nodes', nodeToData, 'ESLURM_INVALID_NODE_NAME', (name) => `Node ${name} not found`);
}

export async function showPartitions(info: ClusterInfo, arg: string | undefined, opts: ShowOptions): Promise<ShowResult> {
  const byName = new Map(info.partitions.map((p) => [p.name, p]));
  const names = arg === undefined ? info.partitions.map((p) => p.name) : [arg];
  const lookup = lookUp(
    names,
    byName,
    (p) => renderKvRecord(partitionRecordLines(p), opts.oneliner),
    (name) => (opts.quiet ? '' : `Partition ${name} not found\n`),
  );
  return result(lookup, opts, 'partitions', partitionToData, 'ESLURM_INVALID_PARTITION_NAME', (name) => `Partition ${name} not found`);
}

// scontrol walks the names of a hostlist; one it cannot parse is looked up as written.
function namesOf(arg: string): string[] {
  try {
    return expandHostlist(arg);
  } catch {
    return [arg];
  }
}

function lookUp<T>(names: readonly string[], byName: ReadonlyMap<string, T>, print: (t: T) => string, notFound: (name: string) => string): Lookup<T> {
  const lookup: Lookup<T> = { found: [], missing: [], text: '' };
  for (const name of names) {
    const item = byName.get(name);
    if (item === undefined) {
      lookup.missing.push(name);
      lookup.text += notFound(name);
    } else {
      lookup.found.push(item);
      lookup.text += print(item);
    }
  }
  return lookup;
}

async function result<T extends NodeInfo | PartitionInfo>(
  lookup: Lookup<T>,
  opts: ShowOptions,
  key: string,
  toData: (t: T) => Record<string, unknown>,
  code: ErrnoName,
  describe: (name: string) => string,
): Promise<ShowResult> {
  const exitCode = lookup.missing.length > 0 ? 1 : 0;
  if (!opts.json && !opts.yaml) return { stdout: lookup.text, exitCode };
  const errors: DataError[] = lookup.missing.map((name) => ({
    error: slurm_strerror(code),
    errno: errnoValue(code),
    description: describe(name),
  }));
  return { stdout: await dataParserText(dataParserDocument({ [key]: lookup.found.map(toData) }, errors), Boolean(opts.yaml)), exitCode };
}
