// The text form of a bitmap: Slurm's bit_fmt ("0-3,7,31-33") and, strictly, what bit_unfmt
// reads. Slurm 22.05's bit_unfmt is lax by accident ("a" sets bit 0, "5-3" sets nothing and
// succeeds, "0-3," is fine); we accept only well-formed lists and say what is wrong otherwise.
import { UserError } from './errors.js';

/** One item of a bit list: lo..hi inclusive, every `step`-th bit (1 unless "lo-hi:step"). */
export interface BitRange {
  lo: number;
  hi: number;
  step: number;
}

const ITEM = /^(\d+)(?:-(\d+)(?::(\d+))?)?$/;

/** The scans bit_fmt needs of a bitmap (Bitstr's; -1: none found). */
export interface BitScan {
  readonly size: number;
  nextSet(from: number): number;
  nextClear(from: number): number;
}

/** Slurm's bit_fmt: runs of set bits as "a-b", single bits as "a", joined with ','. */
export function formatBitRanges(b: BitScan): string {
  const parts: string[] = [];
  for (let start = b.nextSet(0); start >= 0; ) {
    const end = b.nextClear(start + 1);
    const last = end < 0 ? b.size - 1 : end - 1;
    parts.push(last === start ? String(start) : `${start}-${last}`);
    start = end < 0 ? -1 : b.nextSet(end + 1);
  }
  return parts.join(',');
}

/** Parses "0-3,7", "[0-3,7]", "1-17:4" or "" for a bitmap of `nbits` bits. */
export function parseBitRanges(nbits: number, text: string): BitRange[] {
  const body = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (body === '') return [];
  return body.split(',').map((item) => {
    const match = ITEM.exec(item);
    const lo = Number(match?.[1]);
    const hi = match?.[2] === undefined ? lo : Number(match[2]);
    const step = match?.[3] === undefined ? 1 : Number(match[3]);
    if (!match || lo > hi || step < 1) {
      throw new UserError(`Invalid bit list "${text}": bad item "${item}"`);
    }
    const last = lo + Math.floor((hi - lo) / step) * step;
    if (last >= nbits) {
      throw new UserError(`Invalid bit list "${text}": bit ${last} does not fit in ${nbits} bits`);
    }
    return { lo, hi, step };
  });
}
