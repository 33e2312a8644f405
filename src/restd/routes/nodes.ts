// GET /slurm/v0.0.38/nodes and /node/{node_name}: the controller's nodes, each as sinfo --json
// writes it (cli/format/data-parser.ts); an unknown name as 22.05 answers it (errno 2018 under
// `errno`, status 500, an empty list).
import { nodeToData } from '../../cli/format/data-parser.js';
import type { ClusterInfo } from '../../protocol/node-info.js';
import { RestError } from '../errors.js';
import { restMeta } from '../meta.js';
import { pathParam, updateTime, type RestRoute } from '../route.js';

export const nodesRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/nodes',
  operationId: 'slurm_v0_0_38_get_nodes',
  summary: 'get all node info',
  parameters: [updateTime],
  response: 'v0.0.38_nodes_response',
  source: 'slurm_load_node',
  style: 'errno',
  async handle(_request, ctx) {
    const info = await ctx.controller.call<ClusterInfo>('cluster_info');
    return { meta: restMeta(), errors: [], nodes: info.nodes.map(nodeToData) };
  },
};

export const nodeRoute: RestRoute = {
  method: 'GET',
  path: '/slurm/v0.0.38/node/{node_name}',
  operationId: 'slurm_v0_0_38_get_node',
  summary: 'get node info',
  parameters: [pathParam('node_name', 'Slurm Node Name')],
  response: 'v0.0.38_nodes_response',
  source: 'slurm_load_node_single',
  style: 'errno',
  emptyList: 'nodes',
  async handle(request, ctx) {
    const name = request.params.node_name!;
    const info = await ctx.controller.call<ClusterInfo>('cluster_info');
    const node = info.nodes.find((n) => n.name === name);
    if (!node) throw new RestError('ESLURM_INVALID_NODE_NAME', `Unable to find node ${name}`, 'slurm_load_node_single', { style: 'errno' });
    return { meta: restMeta(), errors: [], nodes: [nodeToData(node)] };
  },
};
