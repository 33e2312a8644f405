// GET /slurm/v0.0.38/partitions and /partition/{partition_name}: as scontrol --json writes them
// (cli/format/data-parser.ts). An unknown name is answered as 22.05 does: errno 2000 under the
// key `errno`, status 500, and an empty list.
import { partitionToData } from '../../cli/format/data-parser.js';
import type { ClusterInfo } from '../../protocol/node-info.js';
import { RestError } from '../errors.js';
import { restMeta } from '../meta.js';
import { pathParam, updateTime, type RestRoute } from '../route.js';

export const partitionsRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/partitions',
  operationId: 'slurm_v0_0_38_get_partitions',
  summary: 'get all partition info',
  parameters: [updateTime],
  response: 'v0.0.38_partitions_response',
  source: 'slurm_load_partitions',
  style: 'errno',
  async handle(_request, ctx) {
    const info = await ctx.controller.call<ClusterInfo>('cluster_info');
    return { meta: restMeta(), errors: [], partitions: info.partitions.map(partitionToData) };
  },
};

export const partitionRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/partition/{partition_name}',
  operationId: 'slurm_v0_0_38_get_partition',
  summary: 'get partition info',
  parameters: [pathParam('partition_name', 'Slurm Partition Name'), updateTime],
  response: 'v0.0.38_partitions_response',
  source: 'slurm_load_partitions',
  style: 'errno',
  emptyList: 'partitions',
  async handle(request, ctx) {
    const name = request.params.partition_name!;
    const info = await ctx.controller.call<ClusterInfo>('cluster_info');
    const partition = info.partitions.find((p) => p.name === name);
    if (!partition) throw new RestError('ESLURM_INVALID_PARTITION_NAME', `Unable to find partition ${name}`, 'slurm_load_partitions', { style: 'errno' });
    return { meta: restMeta(), errors: [], partitions: [partitionToData(partition)] };
  },
};
