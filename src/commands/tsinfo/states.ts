// `tsinfo -t/--states`: state names as sinfo 22.05 reads them (opts.c _node_state_id, any
// unambiguous prefix, any case) and the node filter they make (sinfo.c _filter_out).
import { UserErrorList } from '../../core/errors.js';
import { nodeStateString, nodeStateStringCompact } from '../../core/node-state.js';
import {
  NODE_STATE_ALLOCATED,
  NODE_STATE_BASE,
  NODE_STATE_COMPLETING,
  NODE_STATE_DRAIN,
  NODE_STATE_FAIL,
  NODE_STATE_IDLE,
  NODE_STATE_MAINT,
  NODE_STATE_MIXED,
  NODE_STATE_NO_RESPOND,
  NODE_STATE_RES,
} from '../../plugin-api/records.js';
import type { NodeInfo } from '../../protocol/node-info.js';

// Flags Slurm has and tslurm nodes never carry: accepted, match nothing.
const NEVER = 0x4000_0000;

// The list sinfo prints after a bad name, verbatim (observed on Slurm 22.05).
const VALID_STATES =
  'unknown,down,idle,allocated,?,mixed,future,drain,drained,draining,no_respond,reserved,perfctrs,cloud,' +
  'completing,powering_down,powered_down,power_down,powering_up,fail,maint,reboot,reboot^,unknown';

const NAMED: ReadonlyArray<[readonly string[], number]> = [
  [['DRAIN'], NODE_STATE_DRAIN],
  [['DRAINED'], NODE_STATE_DRAIN | NODE_STATE_IDLE],
  [['DRAINING', 'DRNG'], NODE_STATE_DRAIN | NODE_STATE_ALLOCATED],
  [['COMP', 'COMPLETING'], NODE_STATE_COMPLETING],
  [['NO_RESPOND'], NODE_STATE_NO_RESPOND],
  [['POW_DN', 'POWER_DOWN', 'POWERED_DOWN', 'POWERING_DOWN', 'POW_UP', 'POWER_UP', 'POWERING_UP'], NEVER],
  [['FAIL'], NODE_STATE_FAIL],
  [['MAINT'], NODE_STATE_MAINT],
  [['BOOT', 'REBOOT', 'REBOOT^'], NEVER],
  [['RESV', 'RESERVED'], NODE_STATE_RES],
  [['PERFCTRS', 'NPC', 'CLOUD'], NEVER],
];

// `str` names `name` when it is a prefix of it, ignoring case (xstrncasecmp over strlen(str)).
const names = (str: string, name: string): boolean => name.toLowerCase().startsWith(str.toLowerCase());

function stateId(str: string): number | undefined {
  for (let base = 0; base <= 6; base += 1) {
    if (names(str, nodeStateStringCompact(base)) || names(str, nodeStateString(base))) return base;
  }
  return NAMED.find(([spellings]) => spellings.some((s) => names(str, s)))?.[1];
}

/** The -t list as state ids; `all` is every state. Throws sinfo's two error lines. */
export function parseStateList(text: string): number[] {
  if (text.toLowerCase() === 'all') return [0, 1, 2, 3, 4, 5, 6, NODE_STATE_DRAIN, NODE_STATE_COMPLETING];
  return text
    .split(',')
    .filter((s) => s !== '')
    .map((s) => {
      const id = stateId(s);
      if (id === undefined) throw new UserErrorList([`Bad state string: "${s}"`, `valid states: ${VALID_STATES}`]);
      return id;
    });
}

/** Whether a node is in one of the states. */
export function nodeInStates(node: NodeInfo, states: readonly number[]): boolean {
  const s = node.nodeState;
  const base = s & NODE_STATE_BASE;
  const drain = (s & NODE_STATE_DRAIN) !== 0;
  const draining = drain && (base === NODE_STATE_ALLOCATED || base === NODE_STATE_MIXED || (s & NODE_STATE_COMPLETING) !== 0);
  return states.some((id) => {
    if (id === NODE_STATE_DRAIN) return drain;
    if (id === (NODE_STATE_DRAIN | NODE_STATE_ALLOCATED)) return draining;
    if (id === (NODE_STATE_DRAIN | NODE_STATE_IDLE)) return drain && !draining;
    if (id & ~NODE_STATE_BASE) return (id & s) !== 0;
    if (id === NODE_STATE_ALLOCATED) return node.allocCpus > 0;
    // Observed on 22.05: `-t idle` also lists drained idle nodes (the base state is compared).
    return base === id;
  });
}
