// Fuzz of the cluster file loader in-process (issue 16): thousands of plausible, wrong and
// damaged documents (test/helpers/cluster-yaml-arb.ts). Each either loads into a frozen,
// serialisable config within Slurm's limits, or fails with lines of the form
// `c.yaml:LINE:COL: what`, and never with any other error. fast-check prints the seed and
// the smallest failing document.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseClusterText } from '../../../src/config/parse.js';
import { UserError, UserErrorList } from '../../../src/core/errors.js';
import type { ClusterConfig } from '../../../src/config/types.js';
import { clusterYaml, extremeNumberYaml, goodClusterYaml } from '../../helpers/cluster-yaml-arb.js';
import { FUZZ_SEED } from '../../helpers/fuzz.js';

const origin = { source: '/etc/tslurm/c.yaml', baseDir: '/etc/tslurm' };
const RUNS = Number(process.env.TSLURM_FUZZ_RUNS ?? 0) * 20 || 600;

/** Loads `text`; returns the config, or the problem lines it was refused with. */
function load(text: string): ClusterConfig | string[] {
  try {
    return parseClusterText(text, 'c.yaml', origin);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return error instanceof UserErrorList ? [...error.messages] : [error.message];
  }
}

const within = (value: number | undefined, min: number, max: number) =>
  value === undefined || (Number.isSafeInteger(value) && value >= min && value <= max);

// A loaded config is what daemons and plugins get: frozen, serialisable, and every number a
// whole number within what Slurm keeps (and what timers and bitmaps can take).
function checkLoaded(config: ClusterConfig): void {
  expect(Object.isFrozen(config)).toBe(true);
  expect(() => JSON.stringify(config)).not.toThrow();
  expect(within(config.control.slurmdTimeout, 1, 65535) && within(config.control.treeWidth, 1, 65535)).toBe(true);
  for (const node of config.nodes) {
    const counts = [node.cpus, node.sockets, node.coresPerSocket, node.threadsPerCore];
    expect(counts.every((n) => within(n, 1, 65535)), JSON.stringify(node)).toBe(true);
    expect(within(node.realMemory, 1, Number.MAX_SAFE_INTEGER) && within(node.weight, 0, 0xffffffff)).toBe(true);
  }
  for (const part of config.partitions) {
    const numbers = [part.maxTime, part.defaultTime, part.maxNodes, part.minNodes, part.priorityTier];
    expect(numbers.every((n) => within(n, 0, 0xffffffff)), JSON.stringify(part)).toBe(true);
  }
}

function checkRefused(lines: string[]): void {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line).toMatch(/^c\.yaml:\d+:\d+: \S/);
    expect(line).not.toMatch(/\[object Object\]|\bundefined\b|Maximum call stack/);
    expect(line).not.toContain('\n');
  }
}

describe('fuzzing the cluster file loader', () => {
  it('plausible, wrong and damaged documents load or fail with file:line:col lines', () => {
    fc.assert(
      fc.property(clusterYaml, (text) => {
        const result = load(text);
        if (Array.isArray(result)) checkRefused(result);
        else checkLoaded(result);
      }),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
  }, 120_000);

  it('documents with good values load', () => {
    fc.assert(
      fc.property(goodClusterYaml, (text) => {
        const result = load(text);
        expect(result, Array.isArray(result) ? result.join('\n') : '').not.toBeInstanceOf(Array);
        checkLoaded(result as ClusterConfig);
      }),
      { seed: FUZZ_SEED, numRuns: RUNS / 5 },
    );
  }, 120_000);

  it('one number at an extreme (0, 2^53, 1e99, .inf, .nan) loads within limits or fails where it is written', () => {
    fc.assert(
      fc.property(extremeNumberYaml, (text) => {
        const result = load(text);
        if (Array.isArray(result)) checkRefused(result);
        else checkLoaded(result);
      }),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
  }, 120_000);

  it('random text loads or fails with file:line:col lines', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'binary' }), (text) => {
        const result = load(text);
        if (Array.isArray(result)) checkRefused(result);
        else checkLoaded(result);
      }),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
  }, 120_000);
});
