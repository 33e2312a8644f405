// The `show` entities that read the cluster: node, partition and config, with scontrol's
// abbreviations (`n`, `pa`, `c`).
import { UserError } from '../../core/errors.js';
import { loadClusterInfo } from '../../cli/cluster-info.js';
import { showNodes, showPartitions, type ShowOptions, type ShowResult } from './show-info.js';

export type ClusterEntity = 'node' | 'partition' | 'config';

// scontrol's _show_it(): the word is a prefix of the keyword, at least this long.
const ENTITIES: ReadonlyArray<[ClusterEntity, string, number]> = [
  ['config', 'config', 1],
  ['node', 'nodes', 1],
  ['partition', 'partitions', 2],
];

/** The entity a `show` word names, or undefined. */
export function clusterEntity(word: string): ClusterEntity | undefined {
  const w = word.toLowerCase();
  return ENTITIES.find(([, keyword, min]) => w.length >= min && keyword.startsWith(w))?.[0];
}

export async function showClusterEntity(
  entity: ClusterEntity,
  args: readonly string[],
  opts: ShowOptions & { cluster?: string },
): Promise<ShowResult> {
  if (args.length > 1) throw new UserError('too many arguments for keyword:show');
  // scontrol's load call for each (observed with the controller unreachable).
  const loadCall = { node: 'slurm_load_node error:', partition: 'slurm_load_partitions error:', config: 'slurm_load_ctl_conf error:' }[entity];
  const { config, info } = await loadClusterInfo(opts.cluster, loadCall);
  if (entity === 'node') return showNodes(info, args[0], opts);
  if (entity === 'partition') return showPartitions(info, args[0], opts);
  const { configListing, formatConfig } = await import('./show-config.js');
  const listing = configListing(config, process.env);
  const stdout = opts.json ? `${JSON.stringify({ config: Object.fromEntries(listing.entries) }, null, 2)}\n` : formatConfig(listing, new Date());
  return { stdout, exitCode: 0 };
}
