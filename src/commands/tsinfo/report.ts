// One tsinfo listing from one answer of the controller: the table, the node dump of
// --json/--yaml, or the reservations.
import type { ClusterInfo } from '../../protocol/node-info.js';
import { ctime } from '../../core/ctime.js';
import { NODE_STATE_BASE, NODE_STATE_FUTURE } from '../../plugin-api/records.js';
import { buildSinfoRecords } from '../../cli/format/sinfo-records.js';
import { renderSinfo } from '../../cli/format/sinfo-print.js';
import { sortSinfoRecords } from '../../cli/format/sinfo-sort.js';
import { dataParserDocument, dataParserText, nodeToData } from '../../cli/format/data-parser.js';
import type { TsinfoParams } from './params.js';

export async function tsinfoReport(info: ClusterInfo, params: TsinfoParams, now: Date): Promise<string> {
  if (params.output === 'json' || params.output === 'yaml') {
    // Like sinfo 22.05, --json lists every node, whatever -p, -n, -N or -o say.
    const nodes = info.nodes.filter((n) => (n.nodeState & NODE_STATE_BASE) !== NODE_STATE_FUTURE).map(nodeToData);
    return dataParserText(dataParserDocument({ nodes }), params.output === 'yaml');
  }
  const date = params.date ? `${ctime(now)}\n` : '';
  // tslurm has no reservations (yet); sinfo -T says so in these words.
  if (params.output === 'reservations') return `${date}No reservations in the system\n`;
  const records = buildSinfoRecords(info, params.records);
  sortSinfoRecords(records, params.sort);
  return date + renderSinfo(records, params.layout, params);
}
