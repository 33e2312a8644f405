// The one place the SLURM_* variables are made (core/slurm-env.ts): each order names a variable
// once, a variable the environment already has keeps its place (setenv), an absent fact sets
// nothing, and the values derived from several facts come out as Slurm prints them.
import { describe, expect, it } from 'vitest';
import { arrayTaskSpan, BATCH_VARIABLES, SALLOC_VARIABLES, setSlurmVariables, slurmVariables, TASK_VARIABLES } from '../../../src/core/slurm-env.js';

describe('slurm-env', () => {
  it('names each variable once per order', () => {
    for (const order of [BATCH_VARIABLES, TASK_VARIABLES, SALLOC_VARIABLES]) expect(new Set(order).size).toBe(order.length);
  });

  it('keeps an inherited variable in its place and appends the new ones in order', () => {
    const env = ['A=1', 'SLURM_JOBID=7', 'B=2'];
    setSlurmVariables(env, BATCH_VARIABLES, { jobId: 9, jobName: 'x' });
    expect(env.slice(0, 3)).toEqual(['A=1', 'SLURM_JOBID=9', 'B=2']);
    expect(env.slice(3).map((e) => e.split('=')[0])).toEqual([
      'ENVIRONMENT', 'TMPDIR', 'SLURM_JOB_ID', 'SLURM_JOB_NAME', 'SLURM_NODE_ALIASES', 'SLURM_PROCID', 'SLURM_LOCALID',
      'SLURM_TASK_PID', 'SLURM_TOPOLOGY_ADDR_PATTERN',
    ]);
  });

  it('leaves a TMPDIR the environment has, and sets /tmp otherwise', () => {
    expect(slurmVariables(['TMPDIR'], {}, () => true)).toEqual([]);
    expect(slurmVariables(['TMPDIR'], {}, () => false)).toEqual([['TMPDIR', '/tmp']]);
  });

  it('derives the conditional variables from their facts', () => {
    const get = (facts: Parameters<typeof slurmVariables>[1]): Record<string, string> =>
      Object.fromEntries(slurmVariables([...TASK_VARIABLES, ...BATCH_VARIABLES.filter((n) => n.startsWith('SLURM_ARRAY') || n === 'SLURM_GET_USER_ENV' || n === 'SLURM_RESTART_COUNT')], facts, () => false));
    expect(get({ mpiType: 'none', label: false, gpus: [], restartCount: 0 })).not.toHaveProperty('SLURM_MPI_TYPE');
    const all = get({ mpiType: 'pmi2', label: true, gpus: [0, 2], srunPort: 4000, launchNodeAddr: '10.0.0.1', pty: { rows: 24, cols: 80 }, insideJob: true, jobCpusPerNode: '2(x2)', exportEnv: 'NONE', restartCount: 1, array: { jobId: 5, taskId: 7, span: arrayTaskSpan([1, 4, 7]) } });
    expect(all).toMatchObject({
      SLURM_MPI_TYPE: 'pmi2', SLURM_LABELIO: '1', CUDA_VISIBLE_DEVICES: '0,2', SLURM_SRUN_COMM_HOST: '10.0.0.1', SLURM_PTY_PORT: '4000',
      SLURM_PTY_WIN_ROW: '24', SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0: '2(x2)', SLURM_GET_USER_ENV: '1', SLURM_RESTART_COUNT: '1',
      SLURM_ARRAY_TASK_COUNT: '3', SLURM_ARRAY_TASK_MIN: '1', SLURM_ARRAY_TASK_MAX: '7', SLURM_ARRAY_TASK_STEP: '3',
    });
    expect(get({ array: { jobId: 5, taskId: 1, span: arrayTaskSpan([1, 2, 4]) } }).SLURM_ARRAY_TASK_STEP).toBe('1');
  });
});
