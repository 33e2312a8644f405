// The free-CPU index against the plain arithmetic it stands for, after random updates.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FreeIndex } from '../../../plugins/lib/free-index.js';

const values = fc.integer({ min: 0, max: 9 });

describe('FreeIndex', () => {
  it('sum, max and bestFit agree with a walk over the nodes', () => {
    fc.assert(
      fc.property(
        fc.array(values, { minLength: 1, maxLength: 90 }),
        fc.array(fc.tuple(fc.nat(), values), { maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 10 })), { minLength: 1, maxLength: 10 }),
        (initial, updates, queries) => {
          const free = Int32Array.from(initial);
          const index = new FreeIndex(free);
          for (const [at, value] of updates) {
            free[at % free.length] = value;
            index.set(at % free.length, value);
          }
          for (const [a, b, need] of queries) {
            const start = Math.min(a, b) % free.length;
            const end = Math.max(start, Math.max(a, b) % free.length);
            const range = [...free.subarray(start, end + 1)];
            expect(index.sum(start, end)).toBe(range.reduce((x, y) => x + y, 0));
            expect(index.max(start, end)).toBe(Math.max(...range));
            const fitting = range.filter((v) => v >= need && v > 0);
            const fewest = fitting.length === 0 ? -1 : Math.min(...fitting);
            expect(index.bestFit(start, end, need)).toBe(fewest === -1 ? -1 : start + range.indexOf(fewest));
            for (let i = start; i <= end; i++) expect(index.freeOf(i)).toBe(free[i]);
            const words = new Uint32Array((free.length + 31) >>> 5).fill(0xffffffff);
            index.narrowAtLeast(words, need);
            const kept = [...free.keys()].filter((i) => (words[i >>> 5]! & (1 << (i & 31))) !== 0);
            expect(kept).toEqual([...free.keys()].filter((i) => free[i]! >= need && free[i]! > 0));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
