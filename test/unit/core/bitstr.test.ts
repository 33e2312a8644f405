// Reference: Slurm 22.05.8's bitstring functions, called from a small C program linked against
// Debian bookworm's libslurmfull.so. Literals marked "observed" came from it; the property tests
// check every operation against a plain boolean-array model.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitstr, BITSTR_MAX_BITS } from '../../../src/core/bitstr.js';
import * as compat from '../../../src/core/bitstr-compat.js';
import { UserError } from '../../../src/core/errors.js';

const withBits = (nbits: number, ...bits: number[]): Bitstr => {
  const b = new Bitstr(nbits);
  for (const bit of bits) b.set(bit);
  return b;
};

describe('Bitstr basics', () => {
  it('matches Slurm on a 100-bit map (observed)', () => {
    const b = new Bitstr(100);
    expect([b.fmt(), b.ffs(), b.fls(), b.ffc(), b.setCount()]).toEqual(['', -1, -1, 0, 0]);
    b.nset(0, 3).set(7).nset(31, 33).set(99);
    expect(b.fmt()).toBe('0-3,7,31-33,99');
    expect([b.ffs(), b.fls(), b.ffc(), b.setCount()]).toEqual([0, 99, 4, 9]);
    // bit_set_count_range's end is exclusive and clipped to the size
    expect([b.setCountRange(0, 4), b.setCountRange(3, 8), b.setCountRange(32, 200)]).toEqual([
      4, 2, 3,
    ]);
    b.not();
    expect(b.fmt()).toBe('4-6,8-30,34-98');
    expect([b.setCount(), b.fls()]).toEqual([91, 98]);
  });

  it('finds no clear bit in a full map (observed: 70 bits, bit_ffc = -1)', () => {
    expect(new Bitstr(70).nset(0, 69).ffc()).toBe(-1);
  });

  it('superSet(other) is Slurm bit_super_set(this, other): other holds all of this (observed)', () => {
    const small = new Bitstr(10).nset(0, 2);
    const big = new Bitstr(10).nset(0, 5);
    expect(small.superSet(big)).toBe(true);
    expect(big.superSet(small)).toBe(false);
    expect(small.isSubsetOf(big)).toBe(true);
    expect(small.overlap(big)).toBe(3);
    expect(small.equal(big)).toBe(false);
  });

  it('handles size 0 (Slurm 22.05 release builds allow bit_alloc(0))', () => {
    const b = new Bitstr(0);
    expect([b.size, b.fmt(), b.ffs(), b.fls(), b.ffc(), b.setCount()]).toEqual([0, '', -1, -1, -1, 0]);
    expect([...b.setBits()]).toEqual([]);
    expect(b.toBytes()).toEqual(new Uint8Array(0));
    expect(b.not().setCount()).toBe(0);
    expect(b.setAll().setCount()).toBe(0);
    expect(b.setCountRange(0, 10)).toBe(0);
    expect(b.equal(new Bitstr(0))).toBe(true);
  });

  it.each([31, 32, 33, 63, 64, 65])('works at the word boundary, size %i', (size) => {
    const b = new Bitstr(size);
    b.set(size - 1);
    expect([b.ffs(), b.fls(), b.setCount(), b.fmt()]).toEqual([size - 1, size - 1, 1, `${size - 1}`]);
    b.not();
    expect([b.ffs(), b.fls(), b.ffc(), b.setCount()]).toEqual([0, size - 2, size - 1, size - 1]);
    b.setAll();
    expect([b.ffc(), b.setCount(), b.fmt()]).toEqual([-1, size, `0-${size - 1}`]);
    b.nclear(1, size - 2);
    expect(b.fmt()).toBe(`0,${size - 1}`);
    expect(b.setCountRange(0, size)).toBe(2);
  });

  it('sets and clears ranges that cross words', () => {
    const b = new Bitstr(200).nset(30, 130);
    expect(b.fmt()).toBe('30-130');
    expect(b.setCount()).toBe(101);
    b.nclear(31, 96);
    expect(b.fmt()).toBe('30,97-130');
    expect(b.setCountRange(31, 97)).toBe(0);
    expect(b.setCountRange(30, 98)).toBe(2);
    b.nset(5, 4); // start > stop: nothing, as Slurm
    expect(b.fmt()).toBe('30,97-130');
  });

  it('returns set bits in order', () => {
    expect([...withBits(100, 99, 0, 31, 32, 64).setBits()]).toEqual([0, 31, 32, 64, 99]);
  });

  it('finds the next set or clear bit from a position', () => {
    const b = new Bitstr(100).nset(10, 40);
    expect([b.nextSet(0), b.nextSet(11), b.nextSet(41), b.nextSet(100)]).toEqual([10, 11, -1, -1]);
    expect([b.nextClear(10), b.nextClear(41), b.nextClear(99)]).toEqual([41, 41, 99]);
  });

  it('combines bitmaps of the same size in place', () => {
    const a = withBits(40, 1, 2, 33);
    const b = withBits(40, 2, 3, 33, 39);
    expect(a.copy().and(b).fmt()).toBe('2,33');
    expect(a.copy().or(b).fmt()).toBe('1-3,33,39');
    expect(a.copy().andNot(b).fmt()).toBe('1');
    expect(a.overlap(b)).toBe(2);
  });

  it('copies without sharing', () => {
    const a = withBits(40, 5);
    const b = a.copy().set(6);
    expect([a.fmt(), b.fmt(), a.equal(b)]).toEqual(['5', '5-6', false]);
    expect(a.equal(withBits(41, 5))).toBe(false); // sizes differ
  });

  it('resizes; dropped bits stay dropped (Slurm keeps them: observed 0-9 -> 5 -> 70 gives 0-9)', () => {
    const b = new Bitstr(10).nset(0, 9);
    expect(b.resize(80).fmt()).toBe('0-9');
    expect(b.resize(5).fmt()).toBe('0-4');
    expect(b.resize(70).fmt()).toBe('0-4');
    expect(b.size).toBe(70);
  });
});

describe('bounds are programming errors (RangeError)', () => {
  const b = new Bitstr(10);
  it.each([
    ['set(10)', () => b.set(10)],
    ['set(-1)', () => b.set(-1)],
    ['test(1.5)', () => b.test(1.5)],
    ['clear(NaN)', () => b.clear(Number.NaN)],
    ['nset(0, 10)', () => b.nset(0, 10)],
    ['nclear(-1, 3)', () => b.nclear(-1, 3)],
    ['setCountRange(11, 12)', () => b.setCountRange(11, 12)],
    ['nextSet(-1)', () => b.nextSet(-1)],
    ['nextClear(0.5)', () => b.nextClear(0.5)],
    ['and(size 11)', () => b.and(new Bitstr(11))],
    ['or(size 9)', () => b.or(new Bitstr(9))],
    ['andNot(size 11)', () => b.andNot(new Bitstr(11))],
    ['overlap(size 11)', () => b.overlap(new Bitstr(11))],
    ['superSet(size 11)', () => b.superSet(new Bitstr(11))],
    ['new Bitstr(-1)', () => new Bitstr(-1)],
    ['new Bitstr(2.5)', () => new Bitstr(2.5)],
    ['new Bitstr(2^30 + 1)', () => new Bitstr(BITSTR_MAX_BITS + 1)],
    ['resize(-1)', () => b.resize(-1)],
    ['fromBytes(10, 1 byte)', () => Bitstr.fromBytes(10, new Uint8Array(1))],
  ])('%s', (_label, run) => {
    expect(run).toThrow(RangeError);
  });
});

describe('fmt and fromFmt', () => {
  it.each([
    ['0-3,7', '0-3,7'],
    ['[0-3,7]', '0-3,7'],
    ['3,1', '1,3'],
    ['1-3,2-5', '1-5'],
    ['0-9', '0-9'],
    ['1-9:4', '1,5,9'], // Slurm's step form (observed "1-17:4" setting 1,5,9 before running out)
    ['1-11:4', '1,5,9'],
    ['', ''],
    ['[]', ''],
  ])('%s in 10 bits -> %s (observed with bit_unfmt + bit_fmt)', (text, expected) => {
    expect(Bitstr.fromFmt(10, text).fmt()).toBe(expected);
  });

  // bit_unfmt takes these by accident ("a" -> bit 0, "5-3" -> nothing, "0-3," -> 0-3).
  it.each([
    ['0-10', 'Invalid bit list "0-10": bit 10 does not fit in 10 bits'],
    ['10', 'Invalid bit list "10": bit 10 does not fit in 10 bits'],
    ['a', 'Invalid bit list "a": bad item "a"'],
    ['1-', 'Invalid bit list "1-": bad item "1-"'],
    ['-1', 'Invalid bit list "-1": bad item "-1"'],
    ['5-3', 'Invalid bit list "5-3": bad item "5-3"'],
    ['0-3,', 'Invalid bit list "0-3,": bad item ""'],
    [' 1', 'Invalid bit list " 1": bad item " 1"'],
    ['0x3', 'Invalid bit list "0x3": bad item "0x3"'],
    ['1-9:0', 'Invalid bit list "1-9:0": bad item "1-9:0"'],
  ])('rejects %s', (text, message) => {
    expect(() => Bitstr.fromFmt(10, text)).toThrow(UserError);
    expect(() => Bitstr.fromFmt(10, text)).toThrow(message);
  });
});

describe('bytes', () => {
  it('packs least significant bit first', () => {
    const b = new Bitstr(37).nset(3, 36);
    expect([...b.toBytes()]).toEqual([0xf8, 0xff, 0xff, 0xff, 0x1f]);
    expect([...withBits(16, 0, 9, 15).toBytes()]).toEqual([0x01, 0x82]);
    expect(Bitstr.fromBytes(37, b.toBytes()).equal(b)).toBe(true);
  });

  it('ignores bits past the size in the last byte', () => {
    expect(Bitstr.fromBytes(4, Uint8Array.of(0xff)).fmt()).toBe('0-3');
  });
});

describe('Slurm-named functions', () => {
  it('delegate to the class', () => {
    const b = compat.bit_alloc(64);
    compat.bit_set(b, 3);
    compat.bit_nset(b, 10, 12);
    compat.bit_clear(b, 11);
    expect(compat.bit_test(b, 3)).toBe(true);
    expect([compat.bit_size(b), compat.bit_ffs(b), compat.bit_fls(b), compat.bit_ffc(b)]).toEqual([
      64, 3, 12, 0,
    ]);
    expect([compat.bit_set_count(b), compat.bit_set_count_range(b, 0, 11)]).toEqual([3, 2]);
    expect(compat.bit_fmt(b)).toBe('3,10,12');
    const c = compat.bit_copy(b);
    expect(compat.bit_equal(b, c)).toBe(true);
    compat.bit_nclear(c, 10, 12);
    expect(compat.bit_super_set(c, b)).toBe(true);
    expect(compat.bit_overlap(b, c)).toBe(1);
    compat.bit_and_not(b, c);
    expect(compat.bit_fmt(b)).toBe('10,12');
    compat.bit_or(b, c);
    compat.bit_and(b, c);
    expect(compat.bit_fmt(b)).toBe('3');
    compat.bit_not(b);
    expect(compat.bit_set_count(b)).toBe(63);
    compat.bit_clear_all(b);
    compat.bit_set_all(c);
    expect([compat.bit_set_count(b), compat.bit_set_count(c)]).toEqual([0, 64]);
    expect(compat.bit_realloc(c, 70).fmt()).toBe('0-63');
    compat.bit_free(b);
  });
});

// Model: a plain boolean array, every operation written the obvious way.
const modelFmt = (m: readonly boolean[]): string => {
  const parts: string[] = [];
  for (let i = 0; i < m.length; i++) {
    if (!m[i]) continue;
    let j = i;
    while (m[j + 1]) j++;
    parts.push(i === j ? `${i}` : `${i}-${j}`);
    i = j;
  }
  return parts.join(',');
};
const toModel = (b: Bitstr): boolean[] => Array.from({ length: b.size }, (_, i) => b.test(i));
const fromModel = (m: readonly boolean[]): Bitstr => {
  const b = new Bitstr(m.length);
  m.forEach((on, i) => on && b.set(i));
  return b;
};

// Sizes around word boundaries, with sparse, dense and run-heavy contents.
const modelArb = fc
  .constantFrom(0, 1, 31, 32, 33, 63, 64, 65, 96, 100, 130)
  .chain((size) =>
    fc.array(fc.oneof(fc.boolean(), fc.constant(true), fc.constant(false)), {
      minLength: size,
      maxLength: size,
    }),
  );
const pairArb = modelArb.chain((a) =>
  fc.tuple(fc.constant(a), fc.array(fc.boolean(), { minLength: a.length, maxLength: a.length })),
);

describe('properties against a boolean-array model', () => {
  it('queries agree', () => {
    fc.assert(
      fc.property(modelArb, fc.nat(), fc.nat(), (m, x, y) => {
        const b = fromModel(m);
        expect(b.ffs()).toBe(m.indexOf(true));
        expect(b.fls()).toBe(m.lastIndexOf(true));
        expect(b.ffc()).toBe(m.indexOf(false));
        expect(b.setCount()).toBe(m.filter(Boolean).length);
        expect(b.fmt()).toBe(modelFmt(m));
        expect([...b.setBits()]).toEqual(m.flatMap((on, i) => (on ? [i] : [])));
        const start = m.length === 0 ? 0 : x % (m.length + 1);
        const end = y % (m.length + 40);
        expect(b.setCountRange(start, end)).toBe(m.slice(start, end).filter(Boolean).length);
        expect(Bitstr.fromFmt(m.length, b.fmt()).equal(b)).toBe(true);
        expect(Bitstr.fromBytes(m.length, b.toBytes()).equal(b)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('range updates agree', () => {
    fc.assert(
      fc.property(modelArb, fc.nat(), fc.nat(), fc.boolean(), (m, x, y, on) => {
        fc.pre(m.length > 0);
        const [start, stop] = [x % m.length, y % m.length];
        const b = fromModel(m);
        if (on) b.nset(start, stop);
        else b.nclear(start, stop);
        const expected = m.map((bit, i) => (i >= start && i <= stop ? on : bit));
        expect(toModel(b)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('combinations agree', () => {
    fc.assert(
      fc.property(pairArb, ([ma, mb]) => {
        const a = fromModel(ma);
        const b = fromModel(mb);
        expect(toModel(a.copy().and(b))).toEqual(ma.map((v, i) => v && mb[i]!));
        expect(toModel(a.copy().or(b))).toEqual(ma.map((v, i) => v || mb[i]!));
        expect(toModel(a.copy().andNot(b))).toEqual(ma.map((v, i) => v && !mb[i]));
        expect(toModel(a.copy().not())).toEqual(ma.map((v) => !v));
        expect(a.overlap(b)).toBe(ma.filter((v, i) => v && mb[i]).length);
        expect(a.superSet(b)).toBe(ma.every((v, i) => !v || mb[i]));
        expect(a.equal(b)).toBe(ma.every((v, i) => v === mb[i]));
      }),
      { numRuns: 400 },
    );
  });

  it('resize keeps the common prefix and clears the rest', () => {
    fc.assert(
      fc.property(modelArb, fc.nat(140), (m, size) => {
        const b = fromModel(m).resize(size);
        expect(toModel(b)).toEqual(Array.from({ length: size }, (_, i) => m[i] ?? false));
        expect(b.setCount()).toBe(m.slice(0, size).filter(Boolean).length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('speed on 100k bits', () => {
  it('scans and counts in well under a millisecond per call', () => {
    const b = new Bitstr(100_000).set(99_999);
    const full = new Bitstr(100_000).setAll().clear(99_998);
    const start = performance.now();
    let found = 0;
    for (let i = 0; i < 100; i++) found += b.ffs() + b.fls() + full.ffc() + b.setCount();
    expect(found).toBe(100 * (99_999 + 99_999 + 99_998 + 1));
  });
});

describe('Bitstr lazyCopy, hash, readWords', () => {
  // Every method that changes a bitmap.
  const changes: ((b: Bitstr) => unknown)[] = [
    (b) => b.set(1),
    (b) => b.clear(3),
    (b) => b.nset(5, 9),
    (b) => b.nclear(0, 4),
    (b) => b.setAll(),
    (b) => b.clearAll(),
    (b) => b.and(withBits(70, 3)),
    (b) => b.or(withBits(70, 60)),
    (b) => b.andNot(withBits(70, 3)),
    (b) => b.not(),
    (b) => b.resize(80),
  ];

  it('a lazy copy reads its source and takes its own bits at its first change, by any changing method', () => {
    for (const change of changes) {
      const source = withBits(70, 3, 40, 69);
      const lazy = source.lazyCopy();
      expect(lazy.fmt()).toBe('3,40,69');
      expect(lazy.equal(source)).toBe(true);
      change(lazy);
      expect(source.fmt()).toBe('3,40,69');
      // The copy changed alone, and keeps changing alone.
      lazy.set(0);
      expect(source.test(0)).toBe(false);
      expect(lazy.test(0)).toBe(true);
    }
  });

  it('hash: equal bitmaps hash alike; size and bits both count', () => {
    expect(withBits(70, 1, 2).hash()).toBe(withBits(70, 1, 2).hash());
    expect(withBits(70, 1, 2).hash()).not.toBe(withBits(70, 1, 3).hash());
    expect(withBits(70, 1).hash()).not.toBe(withBits(71, 1).hash());
  });

  it('setCount and hash, kept between changes, follow every changing method, in the source and in its lazy copies', () => {
    // What a fresh bitmap with the same bits answers.
    const fresh = (b: Bitstr) => Bitstr.fromBytes(b.size, b.toBytes());
    for (const change of changes) {
      for (const changed of ['source', 'copy'] as const) {
        const source = withBits(70, 3, 40, 69);
        // Counted and hashed before the copy is made, and by the copy after.
        expect(source.setCount()).toBe(3);
        const lazy = source.lazyCopy();
        expect(lazy.setCount()).toBe(3);
        expect(lazy.hash()).toBe(source.hash());
        const target = changed === 'source' ? source : lazy;
        change(target);
        expect(target.setCount()).toBe(fresh(target).setCount());
        expect(target.hash()).toBe(fresh(target).hash());
        if (changed === 'copy') {
          expect(source.setCount()).toBe(3);
          expect(source.hash()).toBe(withBits(70, 3, 40, 69).hash());
        }
      }
    }
  });

  it('a copy and its source compare equal at once until either changes, and then by their bits', () => {
    for (const change of changes) {
      for (const changed of ['source', 'copy'] as const) {
        const source = withBits(70, 3, 40, 69);
        source.hash();
        const copy = source.copy();
        expect(copy.equal(source) && copy.lazyCopy().equal(source) && source.equal(copy.lazyCopy())).toBe(true);
        const target = changed === 'source' ? source : copy;
        const other = changed === 'source' ? copy : source;
        change(target);
        const same = target.size === other.size && target.fmt() === other.fmt();
        expect(target.equal(other)).toBe(same);
        expect(other.equal(target)).toBe(same);
        expect(target.setCount()).toBe(Bitstr.fromBytes(target.size, target.toBytes()).setCount());
        expect(other.setCount()).toBe(3);
        // A lazy copy made now shares the changed bitmap's figures, and its bits.
        expect(target.lazyCopy().equal(target)).toBe(true);
        expect(target.lazyCopy().equal(other)).toBe(same);
      }
    }
  });

  it('readWords fills the given words without making new ones', () => {
    const into = new Uint32Array(3);
    const words = withBits(70, 0, 33, 69).readWords(into);
    expect(words).toBe(into);
    expect([...words]).toEqual([1, 2, 1 << 5]);
  });
});
