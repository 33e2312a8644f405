// What the shared job options do, through the ts names: --signal before the time limit,
// --gpus-per-node/--gpus-per-task, srun's --cpu-bind variables, -I, -d, --jobid, ...
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, runBin } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

// A minute of time limit lasts 6 s here, so --signal=...@30 comes 3 s before the end.
const ctl = testController({ TSLURM_CONF: fixture('clusters', 'gpu.yaml'), TSLURM_MINUTE_SECONDS: '6', TSLURM_KILL_WAIT: '1' });
afterAll(() => ctl.stop());

const trapScript = (signal: string) => `#!/bin/bash
trap 'echo "got ${signal}"; exit 0' ${signal}
sleep 100 &
wait
`;

describe('--signal', () => {
  it('reaches a batch script before its time limit (sbatch --signal=B:USR1@30)', async () => {
    writeFileSync(path.join(ctl.workDir, 'trap.sh'), trapScript('USR1'));
    const r = await ctl.run('tsbatch', ['--parsable', '-t', '1', '--signal=B:USR1@30', '-o', 'trap.out', 'trap.sh']);
    expect(r.exitCode).toBe(0);
    const id = r.stdout.trim();
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED', 30_000);
    expect(ctl.read('trap.out')).toBe('got USR1\n');
  }, 40_000);

  it("reaches srun's tasks before the time limit (srun --signal=USR2@30)", async () => {
    writeFileSync(path.join(ctl.workDir, 'trap2.sh'), trapScript('USR2'));
    const r = await ctl.run('tsrun', ['-t', '1', '--signal=USR2@30', 'bash', 'trap2.sh']);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'got USR2\n' });
  }, 40_000);
});

describe('GPUs per node and per task', () => {
  it('--gpus-per-node gives each node that many GPUs', async () => {
    expect(await ctl.run('tsrun', ['-p', 'gpu', '-N1', '--gpus-per-node=2', 'printenv', 'CUDA_VISIBLE_DEVICES'])).toMatchObject({ exitCode: 0, stdout: '0,1\n' });
  });

  it('--gpus-per-task asks for that many GPUs for each task', async () => {
    const r = await ctl.run('tsrun', ['-p', 'gpu', '-N1', '-n3', '--gpus-per-task=1', 'printenv', 'CUDA_VISIBLE_DEVICES']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '0,1,2\n0,1,2\n0,1,2\n' });
  });
});

describe('srun --cpu-bind', () => {
  it('exports SLURM_CPU_BIND* to the tasks, also under --export=NONE', async () => {
    const r = await ctl.run('tsrun', ['--cpu-bind=verbose,map_cpu:0,1', '--export=NONE', '-n1', '/usr/bin/env']);
    const lines = r.stdout.split('\n').filter((line) => line.startsWith('SLURM_CPU_BIND')).sort();
    expect(lines).toEqual(['SLURM_CPU_BIND=verbose,map_cpu:0,1', 'SLURM_CPU_BIND_LIST=0,1', 'SLURM_CPU_BIND_TYPE=map_cpu:', 'SLURM_CPU_BIND_VERBOSE=verbose']);
  });
});

describe('a job holding cpu1', () => {
  let holder = '';
  it('starts', async () => {
    const r = await ctl.run('tsbatch', ['--parsable', '-w', 'cpu1', '--exclusive', '-t', '10', '--wrap=sleep 60']);
    holder = r.stdout.trim();
    await ctl.until(async () => (await ctl.jobField(holder, 'JobState')) === 'RUNNING');
  });

  // Observed on srun 22.05 (/work/ref/srun-immediate.txt).
  it('-I refuses at once when the nodes are busy; -I2 after waiting; with --hold a dependency problem', async () => {
    expect(await ctl.run('tsrun', ['-I', '-w', 'cpu1', 'true'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsrun: error: Unable to allocate resources: Requested nodes are busy\n' });
    expect(await ctl.run('tsrun', ['-I', '--hold', 'true'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsrun: error: Unable to allocate resources: Job dependency problem\n' });
    const waited = await ctl.run('tsrun', ['-I2', '-w', 'cpu1', 'true']);
    expect(waited.exitCode).toBe(1);
    expect(waited.stderr).toMatch(/^tsrun: job \d+ queued and waiting for resources\ntsrun: error: Unable to allocate resources: Requested nodes are busy\n$/);
  }, 30_000);

  it('--jobid runs a step inside it', async () => {
    const r = await ctl.run('tsrun', [`--jobid=${holder}`, 'bash', '-c', 'echo $SLURM_JOB_ID $SLURM_JOB_NODELIST']);
    expect(r).toMatchObject({ exitCode: 0, stdout: `${holder} cpu1\n` });
  });

  it('-d afterany waits for it to end', async () => {
    const waiting = ctl.run('tsrun', ['-d', `afterany:${holder}`, 'true']);
    await ctl.until(async () => (await ctl.run('tsqueue', ['-h', '-t', 'PD', '-o', '%r'])).stdout.includes('Dependency'));
    await ctl.run('tscancel', [holder]);
    expect(await waiting).toMatchObject({ exitCode: 0 });
  }, 40_000);

  it('--jobid of a job that is not running gets srun\'s two lines', async () => {
    expect(await ctl.run('tsrun', ['--jobid=99999', 'true'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsrun: error: Unable to confirm allocation for job 99999: Invalid job id specified\ntsrun: Check SLURM_JOB_ID environment variable. Expired or invalid job 99999\n',
    });
  });
});

describe('--mincpus and --tmp (TmpDisk)', () => {
  const run = (args: string[]) => runBin('tsrun', args, { env: { TSLURM_CONF: fixture('clusters', 'tmp-disk.yaml') } });

  it('place the job on a node with enough CPUs and temporary disk', async () => {
    expect(await run(['--tmp=1G', 'printenv', 'SLURMD_NODENAME'])).toMatchObject({ exitCode: 0, stdout: 'big\n' });
    expect(await run(['--mincpus=4', 'printenv', 'SLURMD_NODENAME'])).toMatchObject({ exitCode: 0, stdout: 'big\n' });
    expect(await run(['-w', 'small', '--tmp=100', 'printenv', 'SLURMD_NODENAME'])).toMatchObject({ exitCode: 0, stdout: 'small\n' });
  });

  // Observed on srun 22.05 with --tmp beyond every node's TmpDisk.
  it('refuse what no node has, with srun\'s lines', async () => {
    expect(await run(['--tmp=10G', 'true'])).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tsrun: error: Temporary disk specification can not be satisfied\ntsrun: error: Unable to allocate resources: Requested node configuration is not available\n',
    });
    expect(await run(['--mincpus=9', 'true'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsrun: error: Unable to allocate resources: Requested node configuration is not available\n' });
  });

  it('tsinfo shows TmpDisk from the cluster file', async () => {
    expect(await runBin('tsinfo', ['-N', '-h', '-o', '%N %d'], { env: { TSLURM_CONF: fixture('clusters', 'tmp-disk.yaml') } })).toMatchObject({ stdout: 'big 2048\nsmall 100\n' });
  });
});

describe("srun's own --prolog, --epilog and --open-mode", () => {
  it('runs the prolog and epilog around the step with its ids, their output on its own', async () => {
    writeFileSync(path.join(ctl.workDir, 'ids.sh'), '#!/bin/sh\necho "$1 $SLURM_JOB_ID.$SLURM_STEP_ID"\n', { mode: 0o755 });
    writeFileSync(path.join(ctl.workDir, 'pro.sh'), `#!/bin/sh\nexec ${path.join(ctl.workDir, 'ids.sh')} prolog\n`, { mode: 0o755 });
    writeFileSync(path.join(ctl.workDir, 'epi.sh'), `#!/bin/sh\nexec ${path.join(ctl.workDir, 'ids.sh')} epilog\n`, { mode: 0o755 });
    const r = await ctl.run('tsrun', ['--prolog=./pro.sh', '--epilog=./epi.sh', 'echo', 'task']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^prolog (\d+)\.0\ntask\nepilog \1\.0\n$/);
  });

  // Observed on srun 22.05 (/work/ref/srun-prolog.txt).
  it('a failing prolog aborts the step; a failing epilog is reported', async () => {
    expect(await ctl.run('tsrun', ['--prolog=/bin/false', 'echo', 'ran'])).toEqual({ exitCode: 1, stdout: '', stderr: 'tsrun: error: srun prolog failed rc = 1. Aborting step.\n' });
    expect(await ctl.run('tsrun', ['--epilog=/bin/false', 'echo', 'ran'])).toEqual({ exitCode: 0, stdout: 'ran\n', stderr: 'tsrun: error: srun epilog failed status=1\n' });
  });

  it('--open-mode=append adds to an output file; the default starts it anew', async () => {
    writeFileSync(path.join(ctl.workDir, 'om.txt'), 'old\n');
    await ctl.run('tsrun', ['--open-mode=append', '-o', 'om.txt', 'echo', 'new']);
    expect(ctl.read('om.txt')).toBe('old\nnew\n');
    await ctl.run('tsrun', ['-o', 'om.txt', 'echo', 'again']);
    expect(ctl.read('om.txt')).toBe('again\n');
  });
});
