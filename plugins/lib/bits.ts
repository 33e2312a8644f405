// Small bitmap helpers the select plugins share, on top of Bitstr's bit_* operations.
import { Bitstr } from '../../src/plugin-api/index.js';

/** Indices of the set bits, ascending. */
export function setBits(bits: Bitstr): number[] {
  const out: number[] = [];
  for (let i = bits.nextSet(0); i >= 0; i = bits.nextSet(i + 1)) out.push(i);
  return out;
}

/** A bitmap of `size` bits with `indices` set. */
export function bitsOf(size: number, indices: Iterable<number>): Bitstr {
  const bits = new Bitstr(size);
  for (const i of indices) bits.set(i);
  return bits;
}

/**
 * Is every bit of `sub` set in `sup` (Slurm's bit_super_set(sub, sup)), whatever the sizes?
 * Only per-bitmap methods are used: a bitmap made by the host may come from another copy of
 * the Bitstr class (a plugin bundle has its own), whose private fields Bitstr's two-bitmap
 * methods (isSubsetOf, and, or) cannot read.
 */
export function isSubset(sub: Bitstr, sup: Bitstr): boolean {
  for (let i = sub.nextSet(0); i >= 0; i = sub.nextSet(i + 1)) if (i >= sup.size || !sup.test(i)) return false;
  return true;
}
