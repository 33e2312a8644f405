// Reference: Slurm 22.05.8 (Debian bookworm's slurm-client), `scontrol show hostnames|hostlist|
// hostlistsorted <arg>` run with a minimal SLURM_CONF and no daemons. Unless a comment says
// otherwise, every expected string below was observed there. compressHostlistUnique has no
// scontrol command; its cases were observed by calling hostlist_uniq() in the same release's
// libslurmfull.so. Beyond these literals, the implementation was compared with libslurmfull on
// ~50,000 random expressions and name lists (expand, ranged, sorted, uniq): no differences
// except the deviations listed in "what we refuse on purpose".
//
// How scontrol 22.05 reports a malformed hostlist (for tscontrol to copy):
//   scontrol show hostnames 'n[3-1]'        exit 0 (sic), stdout empty, stderr two lines:
//       scontrol: error: _parse_single_range: Invalid range: `3-1'
//       Invalid hostlist: n[3-1]
//   scontrol show hostlist 'n[3-1]'         exit 1, the same two stderr lines
//   scontrol show hostlistsorted 'n[3-1]'   exit 1, the same two stderr lines
//   The first line (HostlistError.detail) is missing for some errors, e.g. 'n[1-2]-ib' prints
//   only "Invalid hostlist: n[1-2]-ib". The second names the whole argument, not the bad part:
//   'n1,n[3-1]' -> "Invalid hostlist: n1,n[3-1]". Too big: 'n[1-65537]' ->
//   "scontrol: error: _parse_single_range: Too many hosts in range `1-65537'" (MAX_RANGE is 64K).
// Other scontrol facts seen on the way:
//   `show hostnames` without an argument expands $SLURM_NODELIST; unset, it prints
//   "scontrol: error: host list is empty" and exits 0. '' prints nothing, exit 0.
//   `show hostlist` / `hostlistsorted` without an argument print "invalid encode argument" and
//   the usage text, exit 1; with '' they print an empty line, exit 0.
//   hostlist/hostlistsorted read a file when the argument starts with '/' (newlines become
//   commas); a missing file gives "Can not open /path", exit 1. hostnames does not ('/x' is a
//   host name). '-' is a host name in 22.05, not stdin. A second argument gives
//   "too many arguments for keyword:show", exit 1. "hostn" is the shortest accepted abbreviation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compressHostlist,
  compressHostlistSorted,
  compressHostlistUnique,
  expandHostlist,
  HostlistError,
  rangedHostlist,
  rangedHostlistSorted,
} from '../../../src/core/hostlist.js';
import { UserError } from '../../../src/core/errors.js';

const hostnames = (expr: string): string => expandHostlist(expr).join(' ');

function thrown(run: () => unknown): HostlistError {
  try {
    run();
  } catch (error) {
    if (error instanceof HostlistError) return error;
    throw error;
  }
  throw new Error('expected a HostlistError');
}

describe('expandHostlist (scontrol show hostnames)', () => {
  it.each([
    ['n[1-3]', 'n1 n2 n3'],
    ['n[1,3,5-7]', 'n1 n3 n5 n6 n7'],
    ['n[01-03],m7', 'n01 n02 n03 m7'],
    ['n[099-101]', 'n099 n100 n101'],
    ['n[9-11]', 'n9 n10 n11'],
    ['n[09-11]', 'n09 n10 n11'],
    ['n[001-3]', 'n001 n002 n003'],
    ['n[1-003]', 'n1 n2 n3'], // the width comes from the low bound only
    ['n[00-02]', 'n00 n01 n02'],
    ['n[1-1]', 'n1'],
    ['n[01]', 'n01'],
    ['[1-3]', '1 2 3'],
    ['5', '5'],
    ['n3,n1,n2', 'n3 n1 n2'],
    ['n[1-2],n[1-2]', 'n1 n2 n1 n2'],
    ['n1 n2  n3', 'n1 n2 n3'],
    ['n1\tn2', 'n1 n2'],
    [' n1 , n2 ', 'n1 n2'],
    ['n1,,n2', 'n1 n2'],
    ['n[1-3],', 'n1 n2 n3'],
    ['', ''],
    [',', ''],
    ['n[4294967295-4294967296]', 'n4294967295 n4294967296'],
  ])('%s', (expr, expected) => {
    expect(hostnames(expr)).toBe(expected);
  });

  it('takes the cartesian product of several groups in Slurm order', () => {
    expect(hostnames('rack[1-2]-n[1-3]')).toBe(
      'rack1-n1 rack1-n2 rack1-n3 rack2-n1 rack2-n2 rack2-n3',
    );
    // The next-to-last group varies slowest, then leftwards, and the last group fastest.
    expect(hostnames('a[1-2]b[3-4]c[5-6]')).toBe(
      'a1b3c5 a1b3c6 a2b3c5 a2b3c6 a1b4c5 a1b4c6 a2b4c5 a2b4c6',
    );
    expect(hostnames('a[1-2]b[3-4]c[5-6]d[7-8]')).toBe(
      'a1b3c5d7 a1b3c5d8 a2b3c5d7 a2b3c5d8 a1b4c5d7 a1b4c5d8 a2b4c5d7 a2b4c5d8 ' +
        'a1b3c6d7 a1b3c6d8 a2b3c6d7 a2b3c6d8 a1b4c6d7 a1b4c6d8 a2b4c6d7 a2b4c6d8',
    );
    expect(hostnames('a[1,3]b[2-3]-c[1-2]')).toBe(
      'a1b2-c1 a1b2-c2 a3b2-c1 a3b2-c2 a1b3-c1 a1b3-c2 a3b3-c1 a3b3-c2',
    );
    expect(hostnames('n[1-2][3-4]')).toBe('n13 n14 n23 n24');
    expect(hostnames('[1-2][3-4]')).toBe('13 14 23 24');
  });

  it('allows 65536 hosts in one range item, as MAX_RANGE', () => {
    const names = expandHostlist('n[0-65535]');
    expect(names).toHaveLength(65536);
    expect(names.at(-1)).toBe('n65535');
  });
});

describe('malformed expressions', () => {
  it.each([
    ['n[3-1]', "_parse_single_range: Invalid range: `3-1'"],
    ['n[a-b]', "_parse_single_range: Invalid range: `a-b'"],
    ['n[]', "_parse_single_range: Invalid range: `'"],
    ['[]', "_parse_single_range: Invalid range: `'"],
    ['n[x]', "_parse_single_range: Invalid range: `x'"],
    ['n[1x2]', "_parse_single_range: Invalid range: `1x2'"],
    ['n[-3]', "_parse_single_range: Invalid range: `-3'"],
    ['n[1--3]', "_parse_single_range: Invalid range: `1--3'"],
    ['n[1-3-5]', "_parse_single_range: Invalid range: `1-3-5'"],
    ['n[,1]', "_parse_single_range: Invalid range: `'"],
    ['n[1,]', "_parse_single_range: Invalid range: `'"],
    ['n[1,,3]', "_parse_single_range: Invalid range: `'"],
    ['n1,n[3-1]', "_parse_single_range: Invalid range: `3-1'"],
    ['n[1-65537]', "_parse_single_range: Too many hosts in range `1-65537'"],
    ['n[0-1048576]', "_parse_single_range: Too many hosts in range `0-1048576'"],
    ['n[1-2]-ib', undefined],
    ['n[1-3]x', undefined],
    ['n[1-3]x[1-2]y', undefined],
    ['n[1-2]]', undefined],
    ['a[1-65536,1]b[1]', undefined], // a group before the last may give at most 64K values
  ])('%s', (expr, detail) => {
    const error = thrown(() => expandHostlist(expr));
    expect(error).toBeInstanceOf(UserError);
    expect(error.message).toBe(`Invalid hostlist: ${expr}`);
    expect(error.expression).toBe(expr);
    expect(error.detail).toBe(detail);
    expect(() => rangedHostlist(expr)).toThrow(`Invalid hostlist: ${expr}`);
    expect(() => rangedHostlistSorted(expr)).toThrow(`Invalid hostlist: ${expr}`);
  });

  it('reports the last bracket group first, as Slurm parses it first', () => {
    expect(thrown(() => expandHostlist('a[x]b[y]')).detail).toBe(
      "_parse_single_range: Invalid range: `y'",
    );
  });

  // Slurm accepts these by accident of its C string handling. Observed 22.05 output in the
  // comments; we throw instead.
  it.each([
    ['n[1-', 'n]'],
    ['n[1-2', 'n]'],
    ['n[', 'n]'],
    ['n]', 'n]'],
    ['n1-2]', 'n1-2]'],
    ['n[[1-2]', 'n[1 n[2'],
    ['a[b[1-2]', 'a[b1 a[b2'],
    ['a]b[1-2]', 'a]b1 a]b2'],
    ['n[1-]', 'n1'],
    ['n[1a-3]', 'n01 n02 n03'],
    ['n[+1-3]', 'n01 n02 n03'],
    ['n[ 1-3]', 'n01 n02 n03'],
    ['n[1, 3]', 'n1 n03'],
    ['n[18446744073709551616]', 'n18446744073709551615'],
    ['a[1-2]b[x]c[1]', '(nothing, after an error line)'],
    ['a[1-65536]b[1-65536]', '(runs out of memory)'],
  ])('what we refuse on purpose: %s (Slurm: %s)', (expr) => {
    expect(() => expandHostlist(expr)).toThrow(HostlistError);
  });

  it('rejects names that would not survive a round trip', () => {
    expect(() => compressHostlist(['n1', 'n[2]'])).toThrow('Invalid host name: "n[2]"');
    expect(() => compressHostlist(['a b'])).toThrow(UserError);
    expect(() => compressHostlist([''])).toThrow('Invalid host name: ""');
  });
});

describe('rangedHostlist (scontrol show hostlist <expr>)', () => {
  it.each([
    ['n1,n2,n3', 'n[1-3]'],
    ['n3,n1,n2', 'n[3,1-2]'],
    ['n1,n1', 'n[1,1]'],
    ['node0[61-65]', 'node0[61-65]'], // the written prefix and width are kept
    ['n[001-003],n[4-5]', 'n[001-003,4-5]'],
    ['n[1-3],n[2-4]', 'n[1-3,2-4]'],
    ['rack[1-2]-n[1-3]', 'rack1-n[1-3],rack2-n[1-3]'],
    ['n[1-2][3-4]', 'n1[3-4],n2[3-4]'],
    ['n[9-11]', 'n[9-11]'],
    ['n[09-11]', 'n[09-11]'],
    ['n[0-65535]', 'n[0-65535]'],
    ['n1 n2  n3', 'n[1-3]'],
    ['n[1-3],', 'n[1-3]'],
    ['', ''],
    [',', ''],
  ])('%s -> %s', (expr, expected) => {
    expect(rangedHostlist(expr)).toBe(expected);
  });
});

describe('rangedHostlistSorted (scontrol show hostlistsorted <expr>)', () => {
  it.each([
    ['node0[61-65],node[060-066]', 'node[060-066],node0[61-65]'],
    ['n[1-3],n[2-4]', 'n[1-2,2-3,3-4]'],
    ['rack[10,2,1]-n[2,1]', 'rack1-n[1-2],rack2-n[1-2],rack10-n[1-2]'],
    ['n2,n10,n1,n01', 'n[1-2,01,10]'],
    ['', ''],
  ])('%s -> %s', (expr, expected) => {
    expect(rangedHostlistSorted(expr)).toBe(expected);
  });
});

describe('compressHostlist (scontrol show hostlist <names>)', () => {
  it.each([
    ['n1,n2,n3', 'n[1-3]'],
    ['n3,n1,n2', 'n[3,1-2]'],
    ['n2,n1', 'n[2,1]'],
    ['n10,n9,n8', 'n[10,9,8]'],
    ['n100,n99,n98', 'n[100,99,98]'],
    ['x10,x9', 'x[10,9]'],
    // duplicates and order are kept
    ['n1,n1', 'n[1,1]'],
    ['n1,n1,n2', 'n[1,1-2]'],
    ['n1,n2,n1,n2', 'n[1-2,1-2]'],
    // zero padding: widths join only where printing cannot change
    ['n1,n01,n001', 'n[1,01,001]'],
    ['n0,n00,n000', 'n[0,00,000]'],
    ['n9,n10,n11', 'n[9-11]'],
    ['n8,n9,n10', 'n[8-10]'],
    ['n09,n10', 'n[09-10]'],
    ['n9,n010', 'n[9,010]'],
    ['n1,n02', 'n[1,02]'],
    ['n05,n10', 'n[05,10]'],
    ['n9,n05', 'n[9,05]'],
    // grouping by prefix: only neighbours share a bracket
    ['n1,m1,n2', 'n1,m1,n2'],
    ['n1,n3,n5,m2,n7', 'n[1,3,5],m2,n7'],
    ['a1b2,a1b3,a2b2', 'a1b[2-3],a2b2'],
    ['n01,n02,n03,m7', 'n[01-03],m7'],
    // names without a trailing number stand alone
    ['n,n1,n2', 'n,n[1-2]'],
    ['n1,n,n2', 'n1,n,n2'],
    ['foo,bar,n1', 'foo,bar,n1'],
    ['n1-ib,n2-ib', 'n1-ib,n2-ib'],
    // numbers without a prefix
    ['1,2,3', '[1-3]'],
    ['1,2,a', '[1-2],a'],
  ])('%s -> %s', (list, expected) => {
    expect(compressHostlist(list.split(','))).toBe(expected);
  });

  it('compresses the names of an expression by their own digits', () => {
    // scontrol show hostlist node061,node062,... (names, not the expression node0[61-62])
    expect(compressHostlist(expandHostlist('node0[61-65]'))).toBe('node[061-065]');
    expect(compressHostlist([])).toBe('');
  });
});

describe('compressHostlistSorted (scontrol show hostlistsorted <names>)', () => {
  it.each([
    ['n3,n1,n2', 'n[1-3]'],
    ['n5,n3,n4,n1', 'n[1,3-5]'],
    ['n10,n9', 'n[9-10]'],
    ['n[1-2],n[4-5],n3', 'n[1-5]'],
    // Slurm keeps duplicates here, and splits overlapping runs at the overlap
    ['n1,n1', 'n[1,1]'],
    ['n3,n3,n3', 'n[3,3,3]'],
    ['n1,n1,n2', 'n[1,1-2]'],
    ['n1,n2,n1,n2', 'n[1,1-2,2]'],
    ['n[1-5],n[2-3]', 'n[1-2,2-3,3-5]'],
    ['n[1-3],n[1-3]', 'n[1,1-2,2-3,3]'],
    ['n[1-10],n[5-15]', 'n[1-5,5-6,6-7,7-8,8-9,9-10,10-15]'],
    // zero-padded numbers sort by width when their widths cannot join
    ['n1,n01,n001', 'n[1,01,001]'],
    ['n001,n01,n1', 'n[1,01,001]'],
    ['n05,n5,n005', 'n[5,05,005]'],
    ['n10,n9,n010,n09', 'n[9,09-10,010]'],
    ['n9,n05,n10', 'n[9,05,10]'],
    // prefixes sort naturally (strnatcmp), a numberless name first
    ['rack10-n1,rack2-n1,rack1-n1', 'rack1-n1,rack2-n1,rack10-n1'],
    ['a10b1,a9b1,a09b1', 'a09b1,a9b1,a10b1'],
    ['n1,m1,n2', 'm1,n[1-2]'],
    ['b,a,n2,n1', 'a,b,n[1-2]'],
    ['n1,n,n2', 'n,n[1-2]'],
    ['a,a1,a', 'a,a,a1'],
    ['x,x,x', 'x,x,x'],
    ['N1,n1,_1,-1,1', '1,-1,N1,_1,n1'],
    ['1,a,A,z,Z', '1,A,Z,a,z'],
  ])('%s -> %s', (list, expected) => {
    const names = list.includes('[') ? expandHostlist(list) : list.split(',');
    expect(compressHostlistSorted(names)).toBe(expected);
  });

  // Slurm 22.05 reads a freed range here (hostlist_coalesce, reachable when zero padding makes
  // its sort order non-transitive); in a fresh scontrol this is what it printed, losing hosts.
  it('copies Slurm where its coalesce step loses hosts', () => {
    const names = 'rack10-n0019,rack10-n0020,rack10-n999,rack10-n1000,rack10-n999,rack10-n1000';
    expect(compressHostlistSorted(names.split(','))).toBe('rack10-n[999,999-1000,1000]');
    expect(rangedHostlistSorted('node0[7-11,03-005,8-10]')).toBe('node0[7-8,8-9,9-10,10]');
  });
});

describe('compressHostlistUnique (libslurm hostlist_uniq)', () => {
  it.each([
    ['n2,n1,n2', 'n[1-2]'],
    ['n1,n2,n3,n2,n3,n4', 'n[1-4]'],
    ['n1,n01,n001,n1', 'n[1,01,001]'],
    ['n1,n2,n3,n1,n2,n3,n5,n1', 'n[1-3,5]'],
    ['b,a,a,n2', 'a,b,n2'],
    ['n10,n9,n010,n09,n9', 'n[9,09-10,010]'],
    ['rack10-n1,rack2-n1,rack1-n1,rack2-n1', 'rack1-n1,rack2-n1,rack10-n1'],
    ['n1,n,n,n2', 'n,n[1-2]'],
  ])('%s -> %s', (list, expected) => {
    expect(compressHostlistUnique(list.split(','))).toBe(expected);
  });
});

// Names as a cluster has them: a prefix, a number that may be zero-padded, or no number at all.
const prefixArb = fc.constantFrom('n', 'node', 'rack1-n', 'rack10-n', 'a1b', '', 'gpu-', 'x');
const numberedArb = fc
  .record({ prefix: prefixArb, num: fc.nat(2000), width: fc.nat(5) })
  .map(({ prefix, num, width }) => prefix + String(num).padStart(width, '0'));
const nameArb = fc.oneof(
  { weight: 9, arbitrary: numberedArb },
  { weight: 1, arbitrary: fc.constantFrom('n', 'login', 'n-ib', 'bar1x') },
);
const runArb = fc
  .record({
    prefix: prefixArb,
    start: fc.nat(150),
    length: fc.integer({ min: 1, max: 20 }),
    width: fc.nat(4),
  })
  .map(({ prefix, start, length, width }) =>
    Array.from({ length }, (_, i) => prefix + String(start + i).padStart(width, '0')),
  );
const listArb = fc
  .array(fc.oneof(runArb, nameArb.map((name) => [name])), { maxLength: 12 })
  .map((parts) => parts.flat());

// One width per prefix: Slurm's sort is a total order on such lists (see "loses hosts" above).
const widthOf: Record<string, number> = { n: 0, node: 3, 'rack1-n': 0, 'gpu-': 2, x: 0 };
const tidyRunArb = fc
  .record({
    prefix: fc.constantFrom(...Object.keys(widthOf)),
    start: fc.nat(150),
    length: fc.integer({ min: 1, max: 20 }),
  })
  .map(({ prefix, start, length }) =>
    Array.from({ length }, (_, i) => prefix + String(start + i).padStart(widthOf[prefix]!, '0')),
  );
const tidyListArb = fc
  .array(fc.oneof(tidyRunArb, fc.constantFrom(['login'], ['n'])), { maxLength: 12 })
  .chain((parts) => fc.shuffledSubarray(parts.flat(), { minLength: parts.flat().length }));

const sorted = (names: readonly string[]): string[] => [...names].sort();

describe('properties', () => {
  it('expand(compress(names)) gives the names back, in order, duplicates kept', () => {
    fc.assert(
      fc.property(listArb, (names) => {
        expect(expandHostlist(compressHostlist(names))).toEqual(names);
      }),
      { numRuns: 500 },
    );
  });

  it('compress is stable: compress(expand(compress(x))) == compress(x)', () => {
    fc.assert(
      fc.property(listArb, (names) => {
        const once = compressHostlist(names);
        expect(compressHostlist(expandHostlist(once))).toBe(once);
        expect(rangedHostlist(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it('sorted compression keeps the same multiset of names and is stable', () => {
    fc.assert(
      fc.property(tidyListArb, (names) => {
        const once = compressHostlistSorted(names);
        expect(sorted(expandHostlist(once))).toEqual(sorted(names));
        expect(compressHostlistSorted(expandHostlist(once))).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it('unique compression keeps each name once', () => {
    fc.assert(
      fc.property(tidyListArb, (names) => {
        const expanded = expandHostlist(compressHostlistUnique(names));
        expect(sorted(expanded)).toEqual(sorted([...new Set(names)]));
      }),
      { numRuns: 500 },
    );
  });

  it('a single bracket group expands like a plain loop', () => {
    const itemArb = fc
      .record({ lo: fc.nat(500), span: fc.nat(30), width: fc.nat(4) })
      .map(({ lo, span, width }) => ({ lo, hi: lo + span, width }));
    fc.assert(
      fc.property(prefixArb, fc.array(itemArb, { minLength: 1, maxLength: 5 }), (prefix, items) => {
        const pad = (n: number, width: number): string => String(n).padStart(width, '0');
        const text = items
          .map(({ lo, hi, width }) => `${pad(lo, width)}-${pad(hi, width)}`)
          .join(',');
        const expected = items.flatMap(({ lo, hi, width }) =>
          Array.from({ length: hi - lo + 1 }, (_, i) => prefix + pad(lo + i, width)),
        );
        expect(expandHostlist(`${prefix}[${text}]`)).toEqual(expected);
      }),
    );
  });
});

// Generous limits: they catch a quadratic path (minutes at 100k), not a slow machine.
describe('speed (no quadratic paths)', () => {
  const timed = <T>(run: () => T): [T, number] => {
    const start = performance.now();
    const result = run();
    return [result, performance.now() - start];
  };

  it('handles a 10,000-node cluster', () => {
    const [names, expandMs] = timed(() => expandHostlist('n[00001-10000]'));
    expect(names).toHaveLength(10_000);
    expect(names[0]).toBe('n00001');
    const [text, compressMs] = timed(() => compressHostlist(names));
    expect(text).toBe('n[00001-10000]');
  });

  it('handles 100,000 names, shuffled and fragmented', () => {
    const every = expandHostlist('n[1-50000],n[50001-100000]');
    const odd = every.filter((_, i) => i % 2 === 0);
    const shuffled = [...every];
    for (let i = shuffled.length - 1, seed = 1; i > 0; i--) {
      seed = (seed * 48271) % 2147483647; // a fixed shuffle keeps the test repeatable
      const j = seed % (i + 1);
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    const [[plain, fragmented, resorted], ms] = timed(() => [
      compressHostlist(every),
      compressHostlist(odd),
      compressHostlistSorted(shuffled),
    ]);
    expect(plain).toBe('n[1-100000]');
    expect(fragmented.startsWith('n[1,3,5,7,')).toBe(true);
    expect(expandHostlist(fragmented)).toEqual(odd);
    expect(resorted).toBe('n[1-100000]');
  });
});
