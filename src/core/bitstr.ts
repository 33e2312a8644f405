// Slurm's bitstr_t (src/common/bitstring.c) as a class: a fixed-size bitmap over Uint32Array
// words, bit i in word i >>> 5 at mask 1 << (i & 31). Bits past `size` in the last word are kept
// clear, so whole-word scans (ffs, popcount) need no masking. Out-of-range indexes throw
// RangeError: they are programming errors, as Slurm's xassert()s treat them.
import { formatBitRanges, parseBitRanges } from './bitstr-fmt.js';
import {
  ALL_ONES,
  countBits,
  fillBits,
  findBit,
  maskThrough,
  orBytesIntoWords,
  popcount,
  wordsToBytes,
} from './bitstr-words.js';

/** Slurm's limit on a bitmap's size (_assert_valid_size: 0x40000000). */
export const BITSTR_MAX_BITS = 0x40000000;

function checkSize(nbits: number): void {
  if (!Number.isInteger(nbits) || nbits < 0 || nbits > BITSTR_MAX_BITS) {
    throw new RangeError(`bitmap size ${nbits} is not an integer in 0..${BITSTR_MAX_BITS}`);
  }
}

const NO_WORDS = new Uint32Array(0);

/** A bitmap's figures once counted; -1 until then. */
interface Memo {
  count: number;
  hash: number;
}

/**
 * Slurm's `bitstr_t`: `new Bitstr(n)` is `bit_alloc(n)`, `set`/`clear`/`test` are
 * `bit_set`/`bit_clear`/`bit_test`, `nextSet(i)` finds the next set bit (-1 when none),
 * `setCount` is `bit_set_count`, `and`/`or`/`andNot`/`not` change the bitmap in place,
 * `copy` is `bit_copy`. Indexes outside 0..size-1 throw RangeError.
 */
export class Bitstr {
  #size: number;
  #words: Uint32Array;
  // Shares its words with the bitmap it was made from until it first changes (lazyCopy).
  #shared = false;
  // What was worked out of the words (set count, hash), shared by the bitmaps made from this
  // one (lazyCopy, copy) and dropped by any of them when it changes: bitmaps sharing one have
  // the same bits. A pass asks the same bitmaps again and again.
  #memo: Memo | undefined;

  constructor(nbits: number) {
    checkSize(nbits);
    this.#size = nbits;
    // No bits, nothing to change: one shared empty array (lazyCopy starts from it).
    this.#words = nbits === 0 ? NO_WORDS : new Uint32Array((nbits + 31) >>> 5);
  }

  /** Number of bits (bit_size). */
  get size(): number {
    return this.#size;
  }

  #check(i: number): void {
    if (i >>> 0 !== i || i >= this.#size) {
      throw new RangeError(`bit ${i} is outside a bitmap of ${this.#size} bits`);
    }
  }

  // Clears the bits past `size` in the last word, after an operation that may set them.
  #trim(): void {
    const used = this.#size & 31;
    if (used !== 0) this.#words[this.#words.length - 1]! &= maskThrough(used - 1);
  }

  #checkSameSize(other: Bitstr): void {
    if (other.#size !== this.#size) {
      throw new RangeError(`bitmaps differ in size: ${this.#size} and ${other.#size} bits`);
    }
  }

  // Before any change: a lazy copy takes its own words now.
  #writable(): void {
    this.#memo = undefined;
    if (this.#shared) {
      this.#words = this.#words.slice();
      this.#shared = false;
    }
  }

  /**
   * A copy that shares this bitmap's words until the copy first changes (copy-on-write): for
   * handing a bitmap to code that usually only reads it, without copying 10,000 bits a call.
   * This bitmap must not change while the copy is in use.
   */
  lazyCopy(): Bitstr {
    const twin = new Bitstr(0);
    twin.#size = this.#size;
    twin.#words = this.#words;
    twin.#shared = true;
    twin.#memo = this.#memo ??= { count: -1, hash: -1 };
    return twin;
  }

  set(i: number): this {
    this.#writable();
    this.#check(i);
    this.#words[i >>> 5]! |= 1 << (i & 31);
    return this;
  }

  clear(i: number): this {
    this.#writable();
    this.#check(i);
    this.#words[i >>> 5]! &= ~(1 << (i & 31));
    return this;
  }

  test(i: number): boolean {
    this.#check(i);
    return (this.#words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  #fill(start: number, stop: number, on: boolean): this {
    this.#writable();
    this.#check(start);
    this.#check(stop);
    if (start <= stop) fillBits(this.#words, start, stop, on); // else nothing, as in Slurm
    return this;
  }

  /** Sets bits start..stop inclusive (bit_nset); nothing when start > stop. */
  nset(start: number, stop: number): this {
    return this.#fill(start, stop, true);
  }

  /** Clears bits start..stop inclusive (bit_nclear); nothing when start > stop. */
  nclear(start: number, stop: number): this {
    return this.#fill(start, stop, false);
  }

  setAll(): this {
    this.#writable();
    this.#words.fill(ALL_ONES);
    this.#trim();
    return this;
  }

  clearAll(): this {
    this.#writable();
    this.#words.fill(0);
    return this;
  }

  #find(from: number, set: boolean): number {
    if (from >>> 0 !== from && !(from >= this.#size)) {
      throw new RangeError(`bit ${from} is not a valid starting position`);
    }
    return from < this.#size ? findBit(this.#words, from, this.#size, set) : -1;
  }

  /** First set bit at or after `from`, or -1 (from may be past the end). */
  nextSet(from = 0): number {
    return this.#find(from, true);
  }

  /** First clear bit at or after `from`, or -1 (from may be past the end). */
  nextClear(from = 0): number {
    return this.#find(from, false);
  }

  /** First set bit, or -1 (bit_ffs). */
  ffs(): number {
    return this.nextSet(0);
  }

  /** First clear bit, or -1 when all are set (bit_ffc). */
  ffc(): number {
    return this.nextClear(0);
  }

  /** Last set bit, or -1 (bit_fls). */
  fls(): number {
    const words = this.#words;
    for (let w = words.length - 1; w >= 0; w--) {
      const x = words[w]!;
      if (x !== 0) return (w << 5) + 31 - Math.clz32(x);
    }
    return -1;
  }

  /** Number of set bits (bit_set_count). */
  setCount(): number {
    if (this.#memo !== undefined && this.#memo.count >= 0) return this.#memo.count;
    let count = 0;
    const words = this.#words;
    // Node sets are mostly sparse: empty words cost a test only.
    for (let w = 0; w < words.length; w++) {
      const x = words[w]!;
      if (x !== 0) count += popcount(x);
    }
    (this.#memo ??= { count: -1, hash: -1 }).count = count;
    return count;
  }

  /**
   * Set bits in start..end-1, like bit_set_count_range: `end` is exclusive (Slurm's "last bit
   * to check + 1") and is clipped to the size.
   */
  setCountRange(start: number, end: number): number {
    if (start >>> 0 !== start || start > this.#size) {
      throw new RangeError(`bit ${start} is outside a bitmap of ${this.#size} bits`);
    }
    const stop = Math.min(end, this.#size) - 1; // inclusive
    return stop < start ? 0 : countBits(this.#words, start, stop);
  }

  /** this &= other (bit_and). Sizes must match. */
  and(other: Bitstr): this {
    this.#writable();
    this.#checkSameSize(other);
    const a = this.#words;
    const b = other.#words;
    for (let w = 0; w < a.length; w++) a[w]! &= b[w]!;
    return this;
  }

  /** this |= other (bit_or). Sizes must match. */
  or(other: Bitstr): this {
    this.#writable();
    this.#checkSameSize(other);
    const a = this.#words;
    const b = other.#words;
    for (let w = 0; w < a.length; w++) a[w]! |= b[w]!;
    return this;
  }

  /** this &= ~other (bit_and_not). Sizes must match. */
  andNot(other: Bitstr): this {
    this.#writable();
    this.#checkSameSize(other);
    const a = this.#words;
    const b = other.#words;
    for (let w = 0; w < a.length; w++) a[w]! &= ~b[w]!;
    return this;
  }

  /** Flips every bit in place (bit_not). */
  not(): this {
    this.#writable();
    const a = this.#words;
    for (let w = 0; w < a.length; w++) a[w] = ~a[w]!;
    this.#trim();
    return this;
  }

  /** Number of bits set in both (bit_overlap). Sizes must match. */
  overlap(other: Bitstr): number {
    this.#checkSameSize(other);
    const a = this.#words;
    const b = other.#words;
    let count = 0;
    for (let w = 0; w < a.length; w++) count += popcount(a[w]! & b[w]!);
    return count;
  }

  /**
   * True when every bit set here is also set in `other`, i.e. `other` is a superset of this:
   * Slurm's bit_super_set(this, other). Same as isSubsetOf. Sizes must match.
   */
  superSet(other: Bitstr): boolean {
    return this.isSubsetOf(other);
  }

  /** True when every bit set here is also set in `other`. Sizes must match. */
  isSubsetOf(other: Bitstr): boolean {
    this.#checkSameSize(other);
    const a = this.#words;
    const b = other.#words;
    for (let w = 0; w < a.length; w++) if ((a[w]! & ~b[w]!) !== 0) return false;
    return true;
  }

  /** Same size and same bits (bit_equal); bitmaps of different sizes are simply unequal. */
  equal(other: Bitstr): boolean {
    if (other.#size !== this.#size) return false;
    const a = this.#words;
    const b = other.#words;
    // Lazy copies share their words, and copies their figures, until one of them changes.
    if (a === b || (this.#memo !== undefined && this.#memo === other.#memo)) return true;
    for (let w = 0; w < a.length; w++) if (a[w] !== b[w]) return false;
    return true;
  }

  /**
   * A 32-bit hash of the size and bits (FNV-1a over the words), for maps keyed by a bitmap's
   * contents: equal bitmaps hash alike; unequal ones may too, so compare with equal() after.
   */
  hash(): number {
    if (this.#memo !== undefined && this.#memo.hash >= 0) return this.#memo.hash;
    let h = Math.imul(0x811c9dc5 ^ this.#size, 0x01000193);
    const words = this.#words;
    for (let w = 0; w < words.length; w++) h = Math.imul(h ^ words[w]!, 0x01000193);
    (this.#memo ??= { count: -1, hash: -1 }).hash = h >>> 0;
    return h >>> 0;
  }

  copy(): Bitstr {
    const twin = new Bitstr(this.#size);
    twin.#words.set(this.#words);
    twin.#memo = this.#memo ??= { count: -1, hash: -1 };
    return twin;
  }

  /**
   * Grows (new bits clear) or shrinks in place (bit_realloc). Unlike Slurm, bits dropped by a
   * shrink stay gone if the map grows again; Slurm's realloc keeps them in the last word.
   */
  resize(nbits: number): this {
    this.#writable();
    checkSize(nbits);
    const words = new Uint32Array((nbits + 31) >>> 5);
    words.set(this.#words.subarray(0, words.length));
    this.#words = words;
    this.#size = nbits;
    this.#trim();
    return this;
  }

  /** The set bits in increasing order. */
  *setBits(): IterableIterator<number> {
    const words = this.#words;
    for (let w = 0; w < words.length; w++) {
      let x = words[w]!;
      while (x !== 0) {
        const low = x & -x;
        yield (w << 5) + 31 - Math.clz32(low);
        x ^= low;
      }
    }
  }

  /** Ranges of set bits as Slurm's bit_fmt prints them: "0-3,7"; "" when none. */
  fmt(): string {
    return formatBitRanges(this);
  }

  /**
   * A bitmap of `nbits` bits with the bits of a bit_fmt-style list set: "0-3,7", "[0-3,7]",
   * "1-17:4" (every 4th). Throws UserError for malformed text or a bit past the end.
   */
  static fromFmt(nbits: number, text: string): Bitstr {
    const b = new Bitstr(nbits);
    for (const { lo, hi, step } of parseBitRanges(nbits, text)) {
      if (step === 1) b.nset(lo, hi);
      else for (let i = lo; i <= hi; i += step) b.set(i);
    }
    return b;
  }

  /**
   * The bits packed into ceil(size / 8) bytes, least significant bit first: bit i is
   * (bytes[i >> 3] >> (i & 7)) & 1. That is also how Slurm's 64-bit words lie in memory on a
   * little-endian host. Bits past `size` in the last byte are 0.
   */
  toBytes(): Uint8Array {
    return wordsToBytes(this.#words, this.#size);
  }

  /** The words copied into `into` (which must hold at least as many), returned. No allocation. */
  readWords(into: Uint32Array): Uint32Array {
    into.set(this.#words);
    return into;
  }

  /** Inverse of toBytes; `bytes` must hold exactly ceil(nbits / 8) bytes. */
  static fromBytes(nbits: number, bytes: Uint8Array): Bitstr {
    const b = new Bitstr(nbits);
    if (bytes.length !== (nbits + 7) >>> 3) {
      throw new RangeError(`${bytes.length} bytes cannot hold exactly ${nbits} bits`);
    }
    orBytesIntoWords(bytes, b.#words);
    b.#trim();
    return b;
  }
}
