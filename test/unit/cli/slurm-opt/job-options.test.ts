// The option tables against what Slurm 22.05's srun, sbatch and salloc accept: every long name and
// its argument kind, probed on the real commands (`<cmd> --NAME=1 --usage`, then `<cmd>
// --NAME` alone) and kept in fixtures/slurm-22.05/<cmd>-long-options.txt; salloc's short
// letters too (`salloc -X1 --usage`, then `salloc -X --usage`: salloc-short-options.txt).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jobOptions } from '../../../../src/cli/slurm-opt/job-options.js';
import { fixture } from '../../../helpers/run-bin.js';

function reference(command: string): Record<string, string> {
  const text = readFileSync(fixture('slurm-22.05', `${command}-long-options.txt`), 'utf8');
  return Object.fromEntries(text.trim().split('\n').map((line) => line.split(' ') as [string, string]));
}

describe.each(['srun', 'sbatch', 'salloc'] as const)('%s', (command) => {
  const table = Object.fromEntries(jobOptions(command).map((s) => [s.long, s.arg]));

  it('accepts every long option 22.05 accepts, with its argument kind', () => {
    const ref = reference(command);
    const missing = Object.keys(ref).filter((name) => table[name] !== ref[name]).map((name) => `${name} ${ref[name]} (ours: ${table[name]})`);
    expect(missing).toEqual([]);
  });

  it('accepts no long option 22.05 refuses', () => {
    const ref = reference(command);
    expect(Object.keys(table).filter((name) => !(name in ref))).toEqual([]);
  });

  it('gives each short letter one option', () => {
    const letters = jobOptions(command).flatMap((s) => (s.short ? [s.short] : []));
    expect(letters.length).toBe(new Set(letters).size);
  });
});

describe('salloc', () => {
  it('takes exactly the short letters 22.05 takes, each with its argument kind', () => {
    const ref = readFileSync(fixture('slurm-22.05', 'salloc-short-options.txt'), 'utf8').trim().split('\n').sort();
    const ours = jobOptions('salloc').flatMap((s) => (s.short ? [`${s.short} ${s.arg}`] : [])).sort();
    expect(ours).toEqual(ref);
  });
});
