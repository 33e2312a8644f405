// Scans over two bitmaps at once, a 32-bit word at a time (bit i in word i >>> 5, mask
// 1 << (i & 31), as Bitstr keeps them): where both have a bit set, and how far such a run
// of bits goes. The select plugins use them to step over the busy nodes of a big cluster
// without visiting them one by one.
import type { Bitstr } from '../../src/plugin-api/index.js';

/**
 * The words of `bits`, `size` bits' worth, in `into` (a new array when not given): through
 * readWords, or toBytes for a bitmap from an older copy of the Bitstr class (a plugin bundle
 * carries its own).
 */
export function wordsOf(bits: Bitstr, size: number, into?: Uint32Array): Uint32Array {
  const words = into ?? new Uint32Array((size + 31) >>> 5);
  if (typeof bits.readWords === 'function' && bits.size === size) return bits.readWords(words);
  words.fill(0);
  const bytes = bits.toBytes();
  for (let b = 0; b < bytes.length && b >>> 2 < words.length; b++) words[b >>> 2]! |= bytes[b]! << ((b & 3) << 3);
  return words;
}

/** The first index ≥ from (and < size) set in both `a` and `b`, or -1. */
export function nextInBoth(a: Uint32Array, b: Uint32Array, from: number, size: number): number {
  if (from >= size) return -1;
  let w = from >>> 5;
  let word = (a[w]! & b[w]!) & (~0 << (from & 31));
  const last = (size - 1) >>> 5;
  while (word === 0) {
    if (++w > last) return -1;
    word = a[w]! & b[w]!;
  }
  const i = (w << 5) + 31 - Math.clz32(word & -word);
  return i < size ? i : -1;
}

/** The last index of the run of bits set in both `a` and `b` that starts at `from` (whose bit is set in both). */
export function runEndInBoth(a: Uint32Array, b: Uint32Array, from: number, size: number): number {
  let w = from >>> 5;
  // Bits below `from` count as set, so the first clear bit of the word is at or after it.
  let gaps = ~(a[w]! & b[w]! | ((1 << (from & 31)) - 1));
  const last = (size - 1) >>> 5;
  while (gaps === 0) {
    if (++w > last) return size - 1;
    gaps = ~(a[w]! & b[w]!);
  }
  const end = (w << 5) + 31 - Math.clz32(gaps & -gaps) - 1;
  return Math.min(end, size - 1);
}
