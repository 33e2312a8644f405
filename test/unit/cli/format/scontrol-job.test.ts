// The lines `scontrol -d show job` adds (DerivedExitCode, JOB_GRES, one `  Nodes=` line per run
// of nodes given the same), built from a job view in memory.
import { describe, expect, it } from 'vitest';
import { jobRecordLines } from '../../../../src/cli/format/scontrol-job.js';
import { cpuIdList, cpuIdText } from '../../../../src/ctld/cpu-ids.js';
import type { JobDetails, JobView } from '../../../../src/protocol/job-view.js';

const START = 1795315771;

function view(details: JobDetails): JobView {
  return {
    jobId: 7, arrayJobId: 0, arrayTaskId: null, arrayMaxRunning: null, defaultNodeMemory: null, name: 'wrap',
    userId: 0, userName: 'root', groupId: 0, partition: 'debug', state: 1, reason: 'None', priority: 1,
    timeLimit: 10, submitTime: START, eligibleTime: START, startTime: START, endTime: START + 600,
    nodes: 'n[1-3]', numNodes: 3, numCpus: 6, numTasks: 3, cpusPerTask: 2, minNodes: 3, memPerNode: null,
    memPerCpu: null, features: null, gres: 'gpu:1', exitStatus: 0, dependency: null, held: null, requeue: true,
    restartCount: 0, workDir: '/w', command: '', stdout: 'slurm-%j.out', stderr: 'slurm-%j.out', stdin: '/dev/null',
    batchHost: 'n1', comment: null, active: true, ntasksPerNode: null, maxNodes: null, reqNodes: null, excNodes: null,
    contiguous: false, exclusive: false, gpus: null, outputGiven: false, errorGiven: false, allocNode: 'localhost',
    details,
  };
}

const details: JobDetails = {
  derivedExitStatus: (3 << 8) | 0,
  gres: 'gpu:3',
  nodes: [
    { name: 'n1', cpuIds: '0-1', memory: 100, gres: 'gpu:1(IDX:0)' },
    { name: 'n2', cpuIds: '0-1', memory: 100, gres: 'gpu:1(IDX:0)' },
    { name: 'n3', cpuIds: '2-3', memory: 100, gres: 'gpu:1(IDX:1)' },
  ],
};

describe('scontrol -d show job', () => {
  it('adds DerivedExitCode after the ExitCode line and the allocation after Socks/Node', () => {
    const lines = jobRecordLines(view(details), START + 5, 1);
    const at = lines.indexOf('Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*');
    expect(lines.slice(at + 1, at + 4)).toEqual([
      'JOB_GRES=gpu:3',
      '  Nodes=n[1-2] CPU_IDs=0-1 Mem=100 GRES=gpu:1(IDX:0)',
      '  Nodes=n3 CPU_IDs=2-3 Mem=100 GRES=gpu:1(IDX:1)',
    ]);
    expect(lines[lines.findIndex((l) => l.startsWith('Requeue=')) + 1]).toBe('DerivedExitCode=3:0');
  });

  it('prints neither without -d, and no allocation for a job without one', () => {
    const plain = jobRecordLines(view(details), START + 5, 0);
    expect(plain.some((l) => l.startsWith('DerivedExitCode=') || l.startsWith('JOB_GRES=') || l.includes('CPU_IDs='))).toBe(false);
    const pending = jobRecordLines(view({ derivedExitStatus: 9, gres: null, nodes: null }), START + 5, 2);
    expect(pending).toContain('DerivedExitCode=0:9');
    expect(pending.some((l) => l.startsWith('JOB_GRES='))).toBe(false);
  });
});

describe('cpuIdText and cpuIdList', () => {
  it("prints CPU numbers as Slurm's bit_fmt does", () => {
    expect(cpuIdText([0])).toBe('0');
    expect(cpuIdText([3, 0, 1, 2])).toBe('0-3');
    expect(cpuIdText([0, 1, 4, 6, 7])).toBe('0-1,4,6-7');
    expect(cpuIdText([])).toBe('');
  });

  it('reads such a list back', () => {
    expect(cpuIdList('0-1,4,6-7')).toEqual([0, 1, 4, 6, 7]);
    expect(cpuIdList('3')).toEqual([3]);
    expect(cpuIdList('')).toEqual([]);
  });
});
