// tsinfo's options and environment turned into what to list and how, as sinfo 22.05's
// parse_command_line() does, with the default formats observed on Slurm 22.05.
import { UserError } from '../../core/errors.js';
import { expandHostlist } from '../../core/hostlist.js';
import { NODE_STATE_DOWN, NODE_STATE_DRAIN, NODE_STATE_FAIL, NODE_STATE_NO_RESPOND } from '../../plugin-api/records.js';
import type { NodeInfo } from '../../protocol/node-info.js';
import { layoutFromFormat, layoutFromLongFormat, matchFlagsOf, type SinfoLayout } from '../../cli/format/sinfo-print.js';
import type { SinfoOptions } from '../../cli/format/sinfo-records.js';
import { defaultSinfoSort } from '../../cli/format/sinfo-sort.js';
import { nodeInStates, parseStateList } from './states.js';

export interface TsinfoOptions {
  all?: boolean;
  dead?: boolean;
  exact?: boolean;
  noheader?: boolean;
  iterate?: string;
  json?: boolean;
  yaml?: boolean;
  long?: boolean;
  nodes?: string;
  Node?: boolean;
  format?: string;
  Format?: string;
  partition?: string;
  responding?: boolean;
  listReasons?: boolean;
  summarize?: boolean;
  sort?: string;
  states?: string;
  reservation?: boolean;
  cluster?: string;
}

export interface TsinfoParams {
  output: 'table' | 'json' | 'yaml' | 'reservations';
  layout: SinfoLayout;
  records: SinfoOptions;
  sort: string;
  header: boolean;
  /** The date line above the listing (-l, -i). */
  date: boolean;
  sizePartitions: boolean;
  sizeNodes: boolean;
  /** Seconds between listings; 0 lists once. */
  iterate: number;
}

const FORMATS = {
  summarize: '%9P %.5a %.10l %.16F %N',
  node: '%N %.6D %.9P %6t',
  nodeLong: '%N %.6D %.9P %.11T %4c %.8z %.6m %.8d %.6w %.8f %20E',
  reasons: '%20E %9u %19H %N',
  reasonsLong: '%20E %12U %19H %6t %N',
  partition: '%9P %.5a %.10l %.6D %.6t %N',
  partitionLong: '%9P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %N',
};

export function tsinfoParams(o: TsinfoOptions, env: NodeJS.ProcessEnv): TsinfoParams {
  const partitionText = o.partition ?? (o.all || env.SINFO_ALL ? undefined : env.SINFO_PARTITION);
  if (o.all && o.partition !== undefined) {
    throw new UserError('Conflicting options, -a and -p, specified. Please choose one or the other.');
  }
  const iterate = o.iterate === undefined ? 0 : Number.parseInt(o.iterate, 10);
  if (o.iterate !== undefined && !(iterate > 0)) throw new UserError(`Error: invalid entry for --iterate=${o.iterate}`);

  const sizes = { sizePartitions: false, sizeNodes: false };
  const format = o.Format ?? o.format ?? defaultFormat(o, env, sizes);
  const layout = o.Format !== undefined ? layoutFromLongFormat(format) : layoutFromFormat(format);
  const listReasons = Boolean(o.listReasons);
  const states = o.states !== undefined ? parseStateList(o.states) : listReasons ? [NODE_STATE_DOWN, NODE_STATE_FAIL, NODE_STATE_DRAIN] : null;

  return {
    output: o.json ? 'json' : o.yaml ? 'yaml' : o.reservation ? 'reservations' : 'table',
    layout,
    records: {
      match: matchFlagsOf(layout),
      nodeFlag: Boolean(o.Node),
      exact: Boolean(o.exact),
      listReasons,
      partitions: partitionText === undefined ? null : partitionText.split(',').filter((p) => p !== ''),
      keepNode: nodeFilter(o, states),
    },
    sort: o.sort ?? env.SINFO_SORT ?? defaultSinfoSort(Boolean(o.Node)),
    header: !o.noheader,
    date: !o.noheader && (iterate > 0 || Boolean(o.long)),
    ...sizes,
    iterate,
  };
}

function defaultFormat(o: TsinfoOptions, env: NodeJS.ProcessEnv, sizes: { sizePartitions: boolean; sizeNodes: boolean }): string {
  if (o.summarize) {
    sizes.sizePartitions = true;
    return FORMATS.summarize;
  }
  if (o.Node) {
    sizes.sizePartitions = true;
    sizes.sizeNodes = true;
    return o.long ? FORMATS.nodeLong : FORMATS.node;
  }
  if (o.listReasons) return o.long ? FORMATS.reasonsLong : FORMATS.reasons;
  if (env.SINFO_FORMAT) return env.SINFO_FORMAT;
  sizes.sizePartitions = true;
  return o.long ? FORMATS.partitionLong : FORMATS.partition;
}

function nodeFilter(o: TsinfoOptions, states: readonly number[] | null): (node: NodeInfo) => boolean {
  let wanted: Set<string> | undefined;
  if (o.nodes !== undefined) {
    try {
      wanted = new Set(expandHostlist(o.nodes));
    } catch {
      throw new UserError(`'${o.nodes}' invalid entry for --nodes`);
    }
  }
  return (node) => {
    if (wanted && !wanted.has(node.name)) return false;
    const responding = (node.nodeState & NODE_STATE_NO_RESPOND) === 0;
    if (o.dead && responding) return false;
    if (o.responding && !responding) return false;
    return states === null || nodeInStates(node, states);
  };
}
