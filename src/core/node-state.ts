// Node states as Slurm's commands print them (src/common/slurm_protocol_defs.c, 22.05):
// node_state_string() ("DRAINED", sinfo %T, scontrol's older form), node_state_string_compact()
// ("drain", sinfo %t) and node_state_string_complete() ("IDLE+DRAIN", scontrol's State=).
// Only the flags tslurm keeps are decoded; Slurm's power-saving and reboot flags never occur.
import {
  NODE_STATE_ALLOCATED,
  NODE_STATE_BASE,
  NODE_STATE_COMPLETING,
  NODE_STATE_DOWN,
  NODE_STATE_DRAIN,
  NODE_STATE_ERROR,
  NODE_STATE_FAIL,
  NODE_STATE_FUTURE,
  NODE_STATE_IDLE,
  NODE_STATE_MAINT,
  NODE_STATE_MIXED,
  NODE_STATE_NO_RESPOND,
  NODE_STATE_RES,
  NODE_STATE_UNKNOWN,
} from '../plugin-api/records.js';

/** Every flag bit tslurm decodes (Slurm's NODE_STATE_FLAGS is wider). */
export const NODE_STATE_FLAGS =
  NODE_STATE_DRAIN | NODE_STATE_COMPLETING | NODE_STATE_NO_RESPOND | NODE_STATE_FAIL | NODE_STATE_MAINT | NODE_STATE_RES;

const BASE_NAMES: Record<number, string> = {
  [NODE_STATE_DOWN]: 'DOWN',
  [NODE_STATE_IDLE]: 'IDLE',
  [NODE_STATE_ALLOCATED]: 'ALLOCATED',
  [NODE_STATE_ERROR]: 'ERROR',
  [NODE_STATE_MIXED]: 'MIXED',
  [NODE_STATE_FUTURE]: 'FUTURE',
  [NODE_STATE_UNKNOWN]: 'UNKNOWN',
};

// In the order of Slurm's node_state_flags[] table, which is the order scontrol prints them.
const FLAG_NAMES: ReadonlyArray<[number, string]> = [
  [NODE_STATE_COMPLETING, 'COMPLETING'],
  [NODE_STATE_DRAIN, 'DRAIN'],
  [NODE_STATE_FAIL, 'FAIL'],
  [NODE_STATE_MAINT, 'MAINTENANCE'],
  [NODE_STATE_NO_RESPOND, 'NOT_RESPONDING'],
  [NODE_STATE_RES, 'RESERVED'],
];

/** node_state_base_string(): `IDLE`, `DOWN`, ... (`INVALID` for a base Slurm does not know). */
export function nodeStateBaseString(state: number): string {
  return BASE_NAMES[state & NODE_STATE_BASE] ?? 'INVALID';
}

/** The names of the flags set, in Slurm's table order: `['DRAIN']`. */
export function nodeStateFlagNames(state: number): string[] {
  return FLAG_NAMES.filter(([bit]) => (state & bit) !== 0).map(([, name]) => name);
}

/** node_state_string_complete(): `IDLE+DRAIN` (scontrol's State=). */
export function nodeStateStringComplete(state: number): string {
  return [nodeStateBaseString(state), ...nodeStateFlagNames(state)].join('+');
}

interface Names {
  maint: string;
  resv: string;
  draining: string;
  drained: string;
  failing: string;
  fail: string;
  down: string;
  alloc: string;
  comp: string;
  idle: string;
  mixed: string;
  future: string;
  unknown: string;
}

const LONG: Names = {
  maint: 'MAINT',
  resv: 'RESERVED',
  draining: 'DRAINING',
  drained: 'DRAINED',
  failing: 'FAILING',
  fail: 'FAIL',
  down: 'DOWN',
  alloc: 'ALLOCATED',
  comp: 'COMPLETING',
  idle: 'IDLE',
  mixed: 'MIXED',
  future: 'FUTURE',
  unknown: 'UNKNOWN',
};

const COMPACT: Names = {
  maint: 'MAINT',
  resv: 'RESV',
  draining: 'DRNG',
  drained: 'DRAIN',
  failing: 'FAILG',
  fail: 'FAIL',
  down: 'DOWN',
  alloc: 'ALLOC',
  comp: 'COMP',
  idle: 'IDLE',
  mixed: 'MIX',
  future: 'FUTR',
  unknown: 'UNK',
};

/** node_state_string(): `IDLE`, `DRAINED`, `DRAINING`, `DOWN*`, `ALLOCATED+` (sinfo %T). */
export function nodeStateString(state: number): string {
  return stateName(state, LONG);
}

/** node_state_string_compact(): `idle`-style names before lower-casing: `DRAIN`, `DRNG`, `MIX` (sinfo %t). */
export function nodeStateStringCompact(state: number): string {
  return stateName(state, COMPACT);
}

// The same decision tree for both spellings; suffixes: `$` maintenance, `*` not responding,
// `+` completing on an allocated node.
function stateName(state: number, n: Names): string {
  const base = state & NODE_STATE_BASE;
  const comp = (state & NODE_STATE_COMPLETING) !== 0;
  const drain = (state & NODE_STATE_DRAIN) !== 0;
  const fail = (state & NODE_STATE_FAIL) !== 0;
  const maint = (state & NODE_STATE_MAINT) !== 0;
  const noResp = (state & NODE_STATE_NO_RESPOND) !== 0;
  const busy = base === NODE_STATE_ALLOCATED || base === NODE_STATE_MIXED;
  const mark = (name: string): string => (maint ? `${name}$` : noResp ? `${name}*` : name);

  if (maint && !drain && !busy && base !== NODE_STATE_DOWN) return noResp ? `${n.maint}*` : n.maint;
  if (drain) return mark(comp || busy ? n.draining : n.drained);
  if (fail) {
    const name = comp || base === NODE_STATE_ALLOCATED ? n.failing : n.fail;
    return noResp ? `${name}*` : name;
  }
  if (base === NODE_STATE_DOWN) return mark(n.down);
  if (base === NODE_STATE_ALLOCATED) return maint || noResp ? mark(n.alloc) : comp ? `${n.alloc}+` : n.alloc;
  if (comp) return mark(n.comp);
  // An idle node in an active reservation is `resv`; a busy one stays `mix`/`alloc` (observed on 22.05).
  if (base === NODE_STATE_IDLE && (state & NODE_STATE_RES) !== 0) return noResp ? `${n.resv}*` : n.resv;
  if (base === NODE_STATE_IDLE) return mark(n.idle);
  if (base === NODE_STATE_MIXED) return mark(n.mixed);
  if (base === NODE_STATE_FUTURE) return mark(n.future);
  if (base === NODE_STATE_UNKNOWN) return noResp ? `${n.unknown}*` : n.unknown;
  return '?';
}
