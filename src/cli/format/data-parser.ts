// --json/--yaml output in the shape of Slurm 22.05's data_parser (openapi v0.0.38): `meta`,
// `errors`, then the records, with Slurm's key names. Only keys tslurm has a real value for
// are written (a node's architecture, load and boot time only when a controller reported
// them); `meta.Slurm` carries
// the toolkit's version, since no Slurm produced the data.
import { compressHostlistSorted } from '../../core/hostlist.js';
import { nodeStateBaseString, nodeStateFlagNames } from '../../core/node-state.js';
import { INFINITE, NO_VAL } from '../../core/slurm-constants.js';
import { toolkitVersionParts, TOOLKIT_VERSION } from '../../os/version.js';
import type { NodeInfo, PartitionInfo } from '../../protocol/node-info.js';
import { nodeTres, partitionTres } from './tres.js';

export interface DataError {
  /** slurm_strerror() of errno. */
  error: string;
  errno: number;
  description?: string;
}

export function dataParserDocument(records: Record<string, unknown>, errors: readonly DataError[] = []): Record<string, unknown> {
  const { major, minor, micro } = toolkitVersionParts();
  return {
    meta: {
      plugin: { type: 'openapi/v0.0.38', name: 'Slurm OpenAPI v0.0.38' },
      Slurm: { version: { major, micro, minor }, release: TOOLKIT_VERSION },
    },
    errors,
    ...records,
  };
}

export function nodeToData(node: NodeInfo): Record<string, unknown> {
  return {
    boards: node.boards,
    cores: node.cores,
    cpus: node.cpus,
    features: node.features ?? '',
    active_features: node.features ?? '',
    gres: node.gres ?? '',
    name: node.name,
    address: node.address,
    hostname: node.hostname,
    state: nodeStateBaseString(node.nodeState).toLowerCase(),
    state_flags: nodeStateFlagNames(node.nodeState),
    partitions: node.partitions,
    ...(node.port !== null && { port: node.port }),
    real_memory: node.realMemory,
    reason: node.reason ?? '',
    reason_changed_at: node.reasonTime,
    reason_set_by_user: node.reasonUid === NO_VAL ? null : node.reasonUid === 0 ? 'root' : String(node.reasonUid),
    sockets: node.sockets,
    threads: node.threads,
    temporary_disk: node.tmpDisk,
    weight: node.weight,
    tres: nodeTres(node),
    slurmd_version: node.version ?? '',
    alloc_memory: node.allocMemory,
    alloc_cpus: node.allocCpus,
    idle_cpus: node.cpus - node.allocCpus,
    // v0.0.38 writes the load as an integer, hundredths.
    ...(node.host && {
      architecture: node.host.arch,
      operating_system: node.host.os,
      cpu_load: Math.round(node.host.cpuLoad * 100),
      free_memory: node.host.freeMem,
      boot_time: node.host.bootTime,
      slurmd_start_time: node.host.slurmdStartTime,
    }),
  };
}

// -1 for INFINITE, null for NO_VAL, as the data_parser writes limits.
const limit = (n: number): number | null => (n === INFINITE ? -1 : n === NO_VAL ? null : n);

export function partitionToData(part: PartitionInfo): Record<string, unknown> {
  return {
    flags: part.isDefault ? ['default'] : [],
    default_time_limit: limit(part.defaultTime),
    maximum_nodes_per_job: limit(part.maxNodes),
    max_time_limit: limit(part.maxTime),
    // Slurm's key really has spaces.
    'min nodes per job': part.minNodes,
    name: part.name,
    nodes: part.nodes.length > 0 ? compressHostlistSorted(part.nodes) : '',
    state: part.state,
    total_cpus: part.totalCpus,
    total_nodes: part.totalNodes,
    tres: partitionTres(part),
  };
}

/** The document as text: JSON indented by two, or YAML. */
export async function dataParserText(doc: Record<string, unknown>, yaml: boolean): Promise<string> {
  if (!yaml) return `${JSON.stringify(doc, null, 2)}\n`;
  const { yamlText } = await import('./yaml-text.js');
  return yamlText(doc);
}
