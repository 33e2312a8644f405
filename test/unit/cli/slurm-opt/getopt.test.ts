// getopt_long's rules over sbatch's and srun's tables, with the words Slurm 22.05 prints
// (observed, /work/ref/option-errors.txt).
import { describe, expect, it } from 'vitest';
import { getopt } from '../../../../src/cli/slurm-opt/getopt.js';
import { jobOptions } from '../../../../src/cli/slurm-opt/job-options.js';
import { rawValues } from '../../../../src/cli/slurm-opt/job-cli.js';
import { thrown } from '../../user-error.js';

const sbatch = (...words: string[]) => getopt(words, jobOptions('sbatch'), { stopAtOperand: true });
const srun = (...words: string[]) => getopt(words, jobOptions('srun'), { stopAtOperand: true });

describe('getopt', () => {
  it('expands a unique prefix of a long option (observed: --job-nam=pref --hol)', () => {
    const { options, operands } = sbatch('--job-nam=pref', '--hol', '--depend', 'afterok:1', 'job.sh');
    expect(rawValues(options)).toEqual({ jobName: 'pref', hold: true, dependency: 'afterok:1' });
    expect(operands).toEqual(['job.sh']);
  });

  it('takes an optional value only when attached', () => {
    expect(rawValues(sbatch('--exclusive', 'job.sh').options)).toEqual({ exclusive: true });
    expect(rawValues(sbatch('--exclusive=user', 'job.sh').options)).toEqual({ exclusive: 'user' });
    expect(srun('-K', 'true')).toMatchObject({ operands: ['true'] });
    expect(rawValues(srun('-K0', '-I5', 'true').options)).toEqual({ killOnBadExit: '0', immediate: '5' });
  });

  it('leaves everything from the script or command on alone', () => {
    expect(sbatch('-J', 'x', 'job.sh', '--bogus', '--exclusive').operands).toEqual(['job.sh', '--bogus', '--exclusive']);
    expect(sbatch('-n', '-3', '--', '--exclusive')).toMatchObject({ operands: ['--exclusive'] });
    expect(rawValues(sbatch('-n', '-3', '--', '--exclusive').options)).toEqual({ ntasks: '-3' });
  });

  it('reads clusters of short options and counts -v', () => {
    expect(rawValues(sbatch('-Hvv', '-n4', '-Hn', '2', 'job.sh').options)).toEqual({ hold: true, verbose: 2, ntasks: '2' });
  });

  it('reads aliases as their option (cpu_bind, tasks-per-node) and --no-requeue as requeue=false', () => {
    expect(rawValues(srun('--cpu_bind=none', '--tasks-per-node=2', 'true').options)).toEqual({ cpuBind: 'none', ntasksPerNode: '2' });
    expect(rawValues(sbatch('--requeue', '--no-requeue', 'j.sh').options)).toEqual({ requeue: false });
  });

  it.each([
    [['--bogus', '--wrap=true'], "unrecognized option '--bogus'"],
    [['-Z', '--wrap=true'], "invalid option -- 'Z'"],
    [['-J'], "option requires an argument -- 'J'"],
    [['--job-name'], "option '--job-name' requires an argument"],
    [['--parsable=3', '--wrap=true'], "option '--parsable' doesn't allow an argument"],
    [['--hel=1'], "option '--help' doesn't allow an argument"],
    [['--mem-per-c'], "option '--mem-per-cpu' requires an argument"],
  ])('sbatch %j: %s', (words, message) => {
    expect(thrown(() => sbatch(...words))).toMatchObject({ message, exitCode: 255 });
  });

  it("names the options an ambiguous prefix could be, in name order (srun's own list)", () => {
    expect(thrown(() => srun('--ex', 'true')).message).toBe(
      "option '--ex' is ambiguous; possibilities: '--exact' '--exclude' '--exclusive' '--export' '--extra-node-info'",
    );
    expect(thrown(() => srun('--n=3', 'true')).message).toBe(
      "option '--n=3' is ambiguous; possibilities: '--network' '--nice' '--no-allocate' '--no-kill' '--nodefile' '--nodelist' '--nodes' '--ntasks' '--ntasks-per-core' '--ntasks-per-gpu' '--ntasks-per-node' '--ntasks-per-socket' '--ntasks-per-tres'",
    );
  });

  it('suggests the nearest option for a near miss', () => {
    expect(thrown(() => srun('--nodez=2', 'true'))).toMatchObject({ suggestion: '--nodes' });
    expect(thrown(() => srun('--zzzzzzzz', 'true'))).toMatchObject({ suggestion: undefined });
  });
});
