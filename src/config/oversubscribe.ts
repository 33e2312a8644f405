// OverSubscribe's setting: NO, EXCLUSIVE, or YES / FORCE with the count of jobs that may hold
// one core at once (slurm.conf: `YES[:count]`, `FORCE[:count]`, the count 4 when not given).
// Slurm keeps the pair in one 16-bit max_share (count | 0x8000 for FORCE, 0 EXCLUSIVE, 1 NO):
// the count is at most 32767.
import type { OverSubscribe } from './types.js';

export const DEFAULT_SHARE_COUNT = 4;
export const MAX_SHARE_COUNT = 0x7fff;

export interface OverSubscribeSetting {
  oversubscribe: OverSubscribe;
  /** Jobs that may hold one core under YES (those asking --oversubscribe) or FORCE; 1 otherwise. */
  shareCount: number;
}

/**
 * The cluster file's and slurm.conf's value, read strictly: `NO`, `EXCLUSIVE`, `YES`, `FORCE`,
 * `YES:N` or `FORCE:N` (any case) with N from 1 to 32767; undefined for anything else.
 */
export function parseOverSubscribe(text: string): OverSubscribeSetting | undefined {
  const match = /^(NO|EXCLUSIVE|YES|FORCE)(?::(\d+))?$/i.exec(text.trim());
  if (!match) return undefined;
  const mode = match[1]!.toUpperCase() as OverSubscribe;
  if (mode === 'NO' || mode === 'EXCLUSIVE') return match[2] === undefined ? { oversubscribe: mode, shareCount: 1 } : undefined;
  const count = match[2] === undefined ? DEFAULT_SHARE_COUNT : Number(match[2]);
  if (count < 1 || count > MAX_SHARE_COUNT) return undefined;
  return { oversubscribe: mode, shareCount: count };
}

/**
 * `scontrol update PartitionName=P OverSubscribe=...` as scontrol 22.05 reads it (observed):
 * the count is C's strtol of what follows the colon, so `FORCE:abc` and `YES:0` mean 0,
 * which is EXCLUSIVE; it is cut to 16 bits (`FORCE:70000` is FORCE:4464, `FORCE:-1`
 * FORCE:32767); a count after NO or EXCLUSIVE is ignored. Undefined for another word.
 */
export function scontrolOverSubscribe(text: string): OverSubscribeSetting | undefined {
  const colon = text.indexOf(':');
  const word = (colon < 0 ? text : text.slice(0, colon)).toUpperCase();
  if (word === 'NO' || word === 'EXCLUSIVE') return { oversubscribe: word, shareCount: 1 };
  if (word !== 'YES' && word !== 'FORCE') return undefined;
  if (colon < 0) return { oversubscribe: word, shareCount: DEFAULT_SHARE_COUNT };
  const count = strtolLow16(text.slice(colon + 1)) & MAX_SHARE_COUNT;
  return count === 0 ? { oversubscribe: 'EXCLUSIVE', shareCount: 1 } : { oversubscribe: word, shareCount: count };
}

/** The slurm.conf / scontrol spelling: `NO`, `EXCLUSIVE`, `YES:4`, `FORCE:8`. */
export function overSubscribeText(setting: OverSubscribeSetting): string {
  const { oversubscribe, shareCount } = setting;
  return oversubscribe === 'YES' || oversubscribe === 'FORCE' ? `${oversubscribe}:${shareCount}` : oversubscribe;
}

// The low 16 bits of C's strtol (base 10) of `text`: blanks, a sign, the digits that follow
// (0 when there are none), held at a 64-bit long's limits as strtol holds them.
function strtolLow16(text: string): number {
  const match = /^\s*([+-]?\d+)/.exec(text);
  if (!match) return 0;
  const LONG_MAX = 2n ** 63n - 1n;
  let value = BigInt(match[1]!);
  if (value > LONG_MAX) value = LONG_MAX;
  if (value < -LONG_MAX - 1n) value = -LONG_MAX - 1n;
  return Number(BigInt.asUintN(16, value));
}
