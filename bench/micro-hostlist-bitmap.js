#!/usr/bin/env node
// Micro-benchmark: hostlist expand/compress for a 10,000-node cluster and Bitstr operations on
// 10k and 100k bits. Each operation is timed next to a floor measured in the same run: the
// cheapest plain-JavaScript way to produce the same result (a loop building the same strings,
// a join over the names, a plain boolean array doing the same bit operation). The ratio is
// our time divided by the floor's time, so machine speed cancels out. It only reports; it never
// passes or fails. Run after `node scripts/build.js`.
import { Bitstr, compressHostlist, expandHostlist } from '../dist/index.js';

const ROUND_MS = 60;
const ROUNDS = 3;

/** Calls `op` repeatedly for at least ROUND_MS; returns operations per second. */
function opsPerSec(op) {
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ROUND_MS) {
    op();
    runs++;
    elapsed = performance.now() - start;
  }
  return (runs * 1000) / elapsed;
}

const rows = [];
// Ours and the floor take turns, and each keeps its best round, so a busy machine (GC, other
// processes) skews the ratio less.
function measure(name, op, floorName, floor) {
  for (let i = 0; i < 5; i++) op(), floor();
  let ours = 0;
  let base = 0;
  for (let round = 0; round < ROUNDS; round++) {
    ours = Math.max(ours, opsPerSec(op));
    base = Math.max(base, opsPerSec(floor));
  }
  rows.push({ name, ours, floorName, base });
}

function print() {
  const fmt = (n) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
  const width = Math.max(...rows.map((r) => r.name.length));
  console.log(`${'operation'.padEnd(width)}  ${'ops/s'.padStart(12)}  ${'floor ops/s'.padStart(12)}  time vs floor  floor`);
  for (const r of rows) {
    const ratio = (r.base / r.ours).toFixed(2);
    console.log(
      `${r.name.padEnd(width)}  ${fmt(r.ours).padStart(12)}  ${fmt(r.base).padStart(12)}  ${`${ratio}x`.padStart(13)}  ${r.floorName}`,
    );
  }
}

// ---- hostlists: a 10,000-node cluster ----
const pad5 = (i) => String(i).padStart(5, '0');
const contiguous = 'n[00001-10000]';
const contiguousNames = expandHostlist(contiguous);
// Fragmented: every third node is missing, and a second prefix is interleaved in blocks.
const buildFragmented = () => {
  const names = [];
  for (let i = 1; i <= 10_000; i++) {
    if (i % 3 !== 0) names.push(`n${pad5(i)}`);
    if (i % 500 === 0) names.push(`gpu${i / 500}`);
  }
  return names;
};
const fragmentedNames = buildFragmented();
const fragmented = compressHostlist(fragmentedNames);

measure(
  `expand ${contiguous}`,
  () => expandHostlist(contiguous),
  'loop: "n" + padStart(5) x 10k',
  () => {
    const out = [];
    for (let i = 1; i <= 10_000; i++) out.push(`n${pad5(i)}`);
    return out;
  },
);
measure(
  `expand fragmented (${fragmented.length} chars)`,
  () => expandHostlist(fragmented),
  'loop building the same names',
  buildFragmented,
);
measure(
  'compress 10k contiguous names',
  () => compressHostlist(contiguousNames),
  'names.join(",")',
  () => contiguousNames.join(','),
);
measure(
  `compress ${fragmentedNames.length} fragmented names`,
  () => compressHostlist(fragmentedNames),
  'names.join(",")',
  () => fragmentedNames.join(','),
);

// ---- bitmaps ----
for (const size of [10_000, 100_000]) {
  const last = new Bitstr(size).set(size - 1);
  const lastBool = new Array(size).fill(false);
  lastBool[size - 1] = true;
  const half = new Bitstr(size);
  const halfBool = new Array(size).fill(false);
  for (let i = 0; i < size; i += 2) {
    half.set(i);
    halfBool[i] = true;
  }
  const other = half.copy().not();
  const otherBool = halfBool.map((v) => !v);
  const k = `${size / 1000}k`;

  measure(`ffs ${k} (only the last bit set)`, () => last.ffs(), 'boolean[].indexOf(true)', () =>
    lastBool.indexOf(true),
  );
  measure(`fls ${k} (only the last bit set)`, () => last.fls(), 'boolean[].lastIndexOf(true)', () =>
    lastBool.lastIndexOf(true),
  );
  measure(`setCount ${k} (half set)`, () => half.setCount(), 'loop counting true', () => {
    let n = 0;
    for (let i = 0; i < size; i++) if (halfBool[i]) n++;
    return n;
  });
  measure(`and ${k} in place`, () => half.copy().and(other), 'copy + loop a[i] && b[i]', () => {
    const out = halfBool.slice();
    for (let i = 0; i < size; i++) out[i] = out[i] && otherBool[i];
    return out;
  });
  measure(`overlap ${k}`, () => half.overlap(other), 'loop counting a[i] && b[i]', () => {
    let n = 0;
    for (let i = 0; i < size; i++) if (halfBool[i] && otherBool[i]) n++;
    return n;
  });
  measure(`nset 0..${size - 1}`, () => new Bitstr(size).nset(0, size - 1), 'new Array(n).fill(true)', () =>
    new Array(size).fill(true),
  );
  measure(`fmt ${k} (half set)`, () => half.fmt(), 'loop joining the set indexes', () => {
    const parts = [];
    for (let i = 0; i < size; i++) if (halfBool[i]) parts.push(i);
    return parts.join(',');
  });
}

print();
