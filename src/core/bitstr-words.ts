// Word-level helpers for Bitstr: bit i lives in words[i >>> 5] at mask 1 << (i & 31). Callers
// check bounds; these only do the bit arithmetic, a 32-bit word at a time.

export const ALL_ONES = 0xffffffff;

/** Number of set bits in a 32-bit word (SWAR popcount). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index of the lowest set bit of a non-zero word. */
export function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Word mask of the bits at or above position bit & 31. */
export function maskFrom(bit: number): number {
  return (ALL_ONES << (bit & 31)) >>> 0;
}

/** Word mask of the bits at or below position bit & 31. */
export function maskThrough(bit: number): number {
  return ALL_ONES >>> (31 - (bit & 31));
}

/** Sets (on) or clears bits start..stop inclusive; start <= stop. */
export function fillBits(words: Uint32Array, start: number, stop: number, on: boolean): void {
  const first = start >>> 5;
  const last = stop >>> 5;
  const head = first === last ? maskFrom(start) & maskThrough(stop) : maskFrom(start);
  words[first] = on ? words[first]! | head : words[first]! & ~head;
  if (first === last) return;
  words.fill(on ? ALL_ONES : 0, first + 1, last);
  const tail = maskThrough(stop);
  words[last] = on ? words[last]! | tail : words[last]! & ~tail;
}

/** Set bits in start..stop inclusive; start <= stop. */
export function countBits(words: Uint32Array, start: number, stop: number): number {
  const first = start >>> 5;
  const last = stop >>> 5;
  if (first === last) return popcount(words[first]! & maskFrom(start) & maskThrough(stop));
  let count = popcount(words[first]! & maskFrom(start));
  for (let w = first + 1; w < last; w++) count += popcount(words[w]!);
  return count + popcount(words[last]! & maskThrough(stop));
}

/**
 * First bit at or after `from` that is set (or clear, when `set` is false), or -1.
 * `from` must be below the bitmap's size; bits past the size must be clear.
 */
export function findBit(words: Uint32Array, from: number, size: number, set: boolean): number {
  const flip = set ? 0 : ALL_ONES;
  let w = from >>> 5;
  let x = (words[w]! ^ flip) & maskFrom(from);
  while (x === 0) {
    if (++w === words.length) return -1;
    x = words[w]! ^ flip;
  }
  const bit = (w << 5) + lowestBit(x);
  return bit < size ? bit : -1;
}

/** The words as ceil(nbits / 8) bytes, least significant bit (and byte) first. */
export function wordsToBytes(words: Uint32Array, nbits: number): Uint8Array {
  const bytes = new Uint8Array((nbits + 7) >>> 3);
  for (let i = 0; i < bytes.length; i++) bytes[i] = words[i >>> 2]! >>> ((i & 3) << 3);
  return bytes;
}

/** ORs bytes (as wordsToBytes lays them out) into the words. */
export function orBytesIntoWords(bytes: Uint8Array, words: Uint32Array): void {
  for (let i = 0; i < bytes.length; i++) {
    words[i >>> 2] = words[i >>> 2]! | (bytes[i]! << ((i & 3) << 3));
  }
}
