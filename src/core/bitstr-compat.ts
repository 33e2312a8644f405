// Slurm's bitstring C API by name, for plugin authors porting C code line by line. Each
// function delegates to Bitstr; predicates return booleans where C returns 1/0, and bit_fmt
// returns the string instead of filling a buffer.
import { Bitstr } from './bitstr.js';

export const bit_alloc = (nbits: number): Bitstr => new Bitstr(nbits);
/** Nothing to free in JavaScript; kept so ported code reads the same. */
export const bit_free = (_b: Bitstr): void => {};
export const bit_size = (b: Bitstr): number => b.size;
export const bit_set = (b: Bitstr, bit: number): void => void b.set(bit);
export const bit_clear = (b: Bitstr, bit: number): void => void b.clear(bit);
export const bit_test = (b: Bitstr, bit: number): boolean => b.test(bit);
export const bit_nset = (b: Bitstr, start: number, stop: number): void => void b.nset(start, stop);
export const bit_nclear = (b: Bitstr, start: number, stop: number): void =>
  void b.nclear(start, stop);
export const bit_set_all = (b: Bitstr): void => void b.setAll();
export const bit_clear_all = (b: Bitstr): void => void b.clearAll();
export const bit_ffs = (b: Bitstr): number => b.ffs();
export const bit_fls = (b: Bitstr): number => b.fls();
export const bit_ffc = (b: Bitstr): number => b.ffc();
export const bit_set_count = (b: Bitstr): number => b.setCount();
/** `end` is exclusive, as in Slurm. */
export const bit_set_count_range = (b: Bitstr, start: number, end: number): number =>
  b.setCountRange(start, end);
export const bit_and = (b1: Bitstr, b2: Bitstr): void => void b1.and(b2);
export const bit_or = (b1: Bitstr, b2: Bitstr): void => void b1.or(b2);
export const bit_and_not = (b1: Bitstr, b2: Bitstr): void => void b1.andNot(b2);
export const bit_not = (b: Bitstr): void => void b.not();
export const bit_copy = (b: Bitstr): Bitstr => b.copy();
export const bit_equal = (b1: Bitstr, b2: Bitstr): boolean => b1.equal(b2);
export const bit_overlap = (b1: Bitstr, b2: Bitstr): number => b1.overlap(b2);
/** True when every bit set in b1 is set in b2 (b2 is the superset). */
export const bit_super_set = (b1: Bitstr, b2: Bitstr): boolean => b1.superSet(b2);
export const bit_fmt = (b: Bitstr): string => b.fmt();
/** Resizes in place and returns the same bitmap (C returns the reallocated pointer). */
export const bit_realloc = (b: Bitstr, nbits: number): Bitstr => b.resize(nbits);
