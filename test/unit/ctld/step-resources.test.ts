// How a job's CPUs are shared among its steps, case by case as observed on Slurm 22.05
// (/work/ref/steps-overlap-exact.txt: salloc -n4 on one node; steps-multi-node.txt: salloc
// -N2 -n4 giving 3 and 1 CPUs).
import { describe, expect, it } from 'vitest';
import { fitStep, type JobUse, type StepAsk } from '../../../src/ctld/step-resources.js';

const ask = (over: Partial<StepAsk>): StepAsk => ({ ntasks: 1, cpusPerTask: 1, exact: false, overlap: false, overcommit: false, ...over });
const one = (used = 0, steps = used > 0 ? 1 : 0): JobUse => ({ cpus: [4], used: [used], steps: [steps] });

describe('fitStep on one node of 4 CPUs', () => {
  it('gives a default step every CPU of the node; --exact only what it asks for', () => {
    expect(fitStep(one(), ask({}))).toEqual({ kind: 'granted', nodes: [0], cpus: [4] });
    expect(fitStep(one(), ask({ exact: true }))).toEqual({ kind: 'granted', nodes: [0], cpus: [1] });
    expect(fitStep(one(), ask({ exact: true, cpusPerTask: 2 }))).toEqual({ kind: 'granted', nodes: [0], cpus: [2] });
  });

  it('makes a step wait while another holds CPUs it needs; a default step needs the whole node', () => {
    expect(fitStep(one(4), ask({}))).toEqual({ kind: 'busy' });
    expect(fitStep(one(2), ask({}))).toEqual({ kind: 'busy' });
    expect(fitStep(one(2), ask({ exact: true, ntasks: 2 }))).toEqual({ kind: 'granted', nodes: [0], cpus: [2] });
    expect(fitStep(one(3), ask({ exact: true, ntasks: 2 }))).toEqual({ kind: 'busy' });
    expect(fitStep(one(1), ask({ exact: true, cpusPerTask: 4 }))).toEqual({ kind: 'busy' });
  });

  it('lets an --overlap step run beside the others, holding the CPUs it would have', () => {
    expect(fitStep(one(4), ask({ overlap: true }))).toEqual({ kind: 'granted', nodes: [0], cpus: [4] });
    expect(fitStep(one(4), ask({ overlap: true, exact: true }))).toEqual({ kind: 'granted', nodes: [0], cpus: [1] });
  });

  it('refuses what the job can never hold, with or without --overlap', () => {
    const never = { kind: 'never', code: 'ESLURM_TOO_MANY_REQUESTED_CPUS' };
    expect(fitStep(one(), ask({ ntasks: 5 }))).toEqual(never);
    expect(fitStep(one(), ask({ ntasks: 5, overlap: true }))).toEqual(never);
    expect(fitStep(one(), ask({ cpusPerTask: 8, exact: true }))).toEqual(never);
    expect(fitStep(one(), ask({ ntasks: 5, overcommit: true }))).toEqual({ kind: 'granted', nodes: [0], cpus: [4] });
  });
});

describe('fitStep on two nodes of 3 and 1 CPUs', () => {
  const job = (used: number[], steps = used.map((u) => (u > 0 ? 1 : 0))): JobUse => ({ cpus: [3, 1], used, steps });

  it('takes as few nodes as the tasks need, nodes no step uses first', () => {
    expect(fitStep(job([0, 0]), ask({ nodeCount: 1 }))).toEqual({ kind: 'granted', nodes: [0], cpus: [3] });
    expect(fitStep(job([3, 0]), ask({ nodeCount: 1 }))).toEqual({ kind: 'granted', nodes: [1], cpus: [1] });
    expect(fitStep(job([3, 1]), ask({ nodeCount: 1 }))).toEqual({ kind: 'busy' });
    expect(fitStep(job([1, 0]), ask({ exact: true }))).toEqual({ kind: 'granted', nodes: [1], cpus: [1] });
    expect(fitStep(job([1, 1]), ask({ exact: true }))).toEqual({ kind: 'granted', nodes: [0], cpus: [1] });
  });

  it('gives a whole-allocation step both nodes once they are free', () => {
    expect(fitStep(job([3, 0]), ask({ ntasks: 4, nodeCount: 2 }))).toEqual({ kind: 'busy' });
    expect(fitStep(job([0, 0]), ask({ ntasks: 4, nodeCount: 2 }))).toEqual({ kind: 'granted', nodes: [0, 1], cpus: [3, 1] });
    expect(fitStep(job([0, 0]), ask({ ntasks: 2, nodeCount: 2, exact: true }))).toEqual({ kind: 'granted', nodes: [0, 1], cpus: [1, 1] });
  });

  it('places -w steps on the nodes named, waiting for them when busy', () => {
    expect(fitStep(job([0, 0]), ask({ nodes: [1], exact: true }))).toEqual({ kind: 'granted', nodes: [1], cpus: [1] });
    expect(fitStep(job([0, 1]), ask({ nodes: [1], exact: true }))).toEqual({ kind: 'busy' });
    expect(fitStep(job([0, 0]), ask({ nodes: [1], ntasks: 2 }))).toEqual({ kind: 'never', code: 'ESLURM_TOO_MANY_REQUESTED_CPUS' });
  });

  it('trims -N to the task count, as srun does', () => {
    expect(fitStep(job([0, 0]), ask({ nodeCount: 2, exact: true }))).toEqual({ kind: 'granted', nodes: [0], cpus: [1] });
  });
});
