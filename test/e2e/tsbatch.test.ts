// tsbatch against a real tsctld on a private state directory (started on demand by the first
// command): output files, --wait and --parsable, arrays, dependencies, holds, time limits,
// steps inside a batch script, backfill — expectations observed on Slurm 22.05's sbatch.
import { afterAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readFileSync, writeFileSync } from 'node:fs';
import { fixture, repoRoot } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs; partition small: 10 min, 2 nodes

describe('tsbatch with an on-demand controller', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());
  const sbatch = (args: string[], options: Parameters<typeof ctl.run>[2] = {}) => ctl.run('tsbatch', ['--cluster', small, ...args], options);

  it('submits, prints Slurm\'s line, runs the script with the batch environment and writes slurm-%j.out', async () => {
    const result = await sbatch(['--wait', '-N2', '-n4', '--wrap', 'echo $SLURM_JOB_ID $SLURM_JOB_NODELIST $SLURM_TASKS_PER_NODE $SLURM_NTASKS $ENVIRONMENT; echo oops >&2']);
    expect(result.stderr).toBe('');
    const id = /^Submitted batch job (\d+)\n$/.exec(result.stdout)?.[1];
    expect(id).toBeDefined();
    expect(result.exitCode).toBe(0);
    expect(ctl.read(`slurm-${id}.out`)).toBe(`${id} node[1-2] 3,1 4 BATCH\noops\n`);
  });

  it('--parsable prints the id alone; --wait exits with the script\'s code, 1 for a signal', async () => {
    const failed = await sbatch(['--parsable', '--wait', '--wrap', 'exit 3']);
    expect(failed).toMatchObject({ exitCode: 3, stderr: '' });
    expect(failed.stdout).toMatch(/^\d+\n$/);
    expect(await ctl.jobField(failed.stdout.trim(), 'JobState')).toBe('FAILED');
    expect(await ctl.jobField(failed.stdout.trim(), 'ExitCode')).toBe('3:0');
    const killed = await sbatch(['--parsable', '--wait', '--wrap', 'kill -9 $$']);
    expect(killed.exitCode).toBe(1);
    expect(await ctl.jobField(killed.stdout.trim(), 'Reason')).toBe('JobLaunchFailure');
    expect(await ctl.jobField(killed.stdout.trim(), 'ExitCode')).toBe('0:9');
  });

  it('runs an array with its task variables and files, at most %N at once, and waits for the highest exit', async () => {
    const script = 'echo $SLURM_ARRAY_JOB_ID $SLURM_ARRAY_TASK_ID $SLURM_ARRAY_TASK_COUNT $SLURM_ARRAY_TASK_MIN $SLURM_ARRAY_TASK_MAX $SLURM_ARRAY_TASK_STEP; exit $SLURM_ARRAY_TASK_ID';
    const result = await sbatch(['--parsable', '--wait', '--array=0-4:2%2', '-o', 'arr-%A_%a.out', '--wrap', script]);
    const id = result.stdout.trim();
    expect(result.exitCode).toBe(4);
    expect(ctl.read(`arr-${id}_0.out`)).toBe(`${id} 0 3 0 4 2\n`);
    expect(ctl.read(`arr-${id}_2.out`)).toBe(`${id} 2 3 0 4 2\n`);
    expect(ctl.read(`arr-${id}_4.out`)).toBe(`${id} 4 3 0 4 2\n`);
  });

  it('holds dependent jobs until their dependency is met, and marks one that never can be', async () => {
    // The first job is held until both dependents are in, so their waiting is seen for sure.
    const first = (await sbatch(['--parsable', '--hold', '--wrap', 'exit 1'])).stdout.trim();
    const ok = (await sbatch(['--parsable', `--dependency=afterok:${first}`, '--wrap', 'true'])).stdout.trim();
    const notok = (await sbatch(['--parsable', `--dependency=afternotok:${first}`, '--wrap', 'echo ran'])).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(ok, 'Reason')) === 'Dependency');
    expect(await ctl.jobField(ok, 'Dependency')).toBe(`afterok:${first}(unfulfilled)`);
    expect(await ctl.jobField(notok, 'JobState')).toBe('PENDING');
    await ctl.run('tscontrol', ['release', first]);
    await ctl.until(async () => (await ctl.jobField(notok, 'JobState')) === 'COMPLETED');
    expect(await ctl.jobField(ok, 'JobState')).toBe('PENDING');
    expect(await ctl.jobField(ok, 'Reason')).toBe('DependencyNeverSatisfied');
    expect(await ctl.jobField(ok, 'Dependency')).toBe(`afterok:${first}(failed)`);
    expect(ctl.read(`slurm-${notok}.out`)).toBe('ran\n');
    await ctl.run('tscancel', [ok]);
  });

  it('keeps a held job pending until tscontrol release', async () => {
    const id = (await sbatch(['--parsable', '--hold', '--wrap', 'echo released'])).stdout.trim();
    expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
    expect(await ctl.jobField(id, 'Reason')).toBe('JobHeldUser');
    expect(await ctl.jobField(id, 'Priority')).toBe('0');
    expect((await ctl.run('tscontrol', ['release', id])).exitCode).toBe(0);
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
    expect(ctl.read(`slurm-${id}.out`)).toBe('released\n');
  });

  // A -n1 step in a two-node job gets srun's warning before it narrows to one node (22.05 prints
  // it there too: /work/ref/steps-multi-node.txt's `srun -n1` inside `salloc -N2`).
  it('runs tsrun inside a batch script as steps 0, 1, ... of the job', async () => {
    const tsrun = `${process.execPath} ${path.join(repoRoot, 'bin', 'tsrun.js')}`;
    const script = `#!/bin/sh\n#SBATCH -N2 -n4\n#SBATCH -o steps.out\n${tsrun} -l sh -c 'echo $SLURM_JOB_ID.$SLURM_STEP_ID $SLURMD_NODENAME' | sort\n${tsrun} -n1 sh -c 'echo step $SLURM_STEP_ID'\n`;
    const result = await sbatch(['--parsable', '--wait'], { input: script });
    const id = result.stdout.trim();
    expect(result.exitCode).toBe(0);
    expect(ctl.read('steps.out')).toBe(
      [
        `0: ${id}.0 node1`,
        `1: ${id}.0 node1`,
        `2: ${id}.0 node1`,
        `3: ${id}.0 node2`,
        "tsrun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1",
        'step 1',
        '',
      ].join('\n'),
    );
  });

  it('refuses an unknown partition and a time limit beyond the partition\'s', async () => {
    expect(await sbatch(['-p', 'nosuch', '--wrap', 'true'])).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: 'tsbatch: error: Batch job submission failed: Invalid partition name specified\n',
    });
    expect(await sbatch(['-p', 'small', '-t', '20', '--wrap', 'true'])).toMatchObject({
      exitCode: 1,
      stderr: 'tsbatch: error: Batch job submission failed: Requested time limit is invalid (missing or exceeds some limit)\n',
    });
  });

  it('--test-only says where and when the job would start, on stderr, without running it (the CPUs -n4 needs, as cons_tres gives them)', async () => {
    const result = await sbatch(['--test-only', '-N2', '-n4', '--wrap', 'true']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^tsbatch: Job \d+ to start at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d using 4 processors on nodes node\[1-2\] in partition debug\n$/);
  });
});

describe('time limits', () => {
  // One minute of time limit lasts one second here.
  const ctl = testController({ TSLURM_MINUTE_SECONDS: '1' });
  afterAll(() => ctl.stop());

  it('ends a job at its limit as TIMEOUT with slurmstepd\'s line in its output', async () => {
    // The limit counts from the job's start (whole seconds), not the script's: a step host
    // already up, and two "minutes", leave the script time to say `start` on a loaded machine.
    expect((await ctl.run('tsbatch', ['--cluster', small, '--wait', '--wrap', 'true'])).exitCode).toBe(0);
    const result = await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wait', '-t', '2', '--wrap', 'echo start; sleep 30; echo never']);
    const id = result.stdout.trim();
    expect(result.exitCode).toBe(1);
    expect(ctl.read(`slurm-${id}.out`)).toMatch(
      new RegExp(`^start\\nslurmstepd-node1: error: \\*\\*\\* JOB ${id} ON node1 CANCELLED AT \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d DUE TO TIME LIMIT \\*\\*\\*\\n$`),
    );
    expect(await ctl.jobField(id, 'JobState')).toBe('TIMEOUT');
    expect(await ctl.jobField(id, 'Reason')).toBe('TimeLimit');
    expect(await ctl.jobField(id, 'ExitCode')).toBe('0:15');
  });
});

describe('sched/backfill', () => {
  const cluster = fixture('clusters', 'backfill.yaml'); // node[1-4], one CPU each
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('starts a short job ahead of a blocked big one, when it ends before the big one could start', async () => {
    const sbatch = (args: string[]) => ctl.run('tsbatch', ['--cluster', cluster, '--parsable', ...args]);
    const running = (await sbatch(['-N2', '-t', '30', '--wrap', 'sleep 60'])).stdout.trim();
    const big = (await sbatch(['-N4', '-t', '30', '--wrap', 'true'])).stdout.trim();
    const small = (await sbatch(['-N1', '-t', '5', '--wrap', 'echo backfilled'])).stdout.trim();
    const long = (await sbatch(['-N1', '-t', '50', '--wrap', 'true'])).stdout.trim();
    await ctl.until(async () => (await ctl.jobField(small, 'JobState')) === 'COMPLETED');
    expect(await ctl.jobField(big, 'JobState')).toBe('PENDING');
    expect(await ctl.jobField(big, 'Reason')).toBe('Resources');
    // Ending after the big job's expected start, it would delay it: it waits.
    expect(await ctl.jobField(long, 'JobState')).toBe('PENDING');
    expect(await ctl.jobField(long, 'Reason')).toBe('Priority');
    await ctl.run('tscancel', [running, big, long]);
  });
});

describe('a batch step whose container cannot be made', () => {
  const ctl = testController();
  afterAll(() => ctl.stop());

  it('ends the job FAILED with the plugin\'s error, instead of requeueing it for ever', async () => {
    const cluster = path.join(ctl.workDir, 'broken-tmpfs.yaml');
    writeFileSync(
      cluster,
      'cluster: broken\nplugins: { job_container: job_container/tmpfs }\noptions:\n  job_container_tmpfs: { base_path: /proc/no-such-dir/x }\nnodes: [{ name: n1, cpus: 2 }]\npartitions: [{ name: p, nodes: n1 }]\n',
    );
    const r = await ctl.run('tsbatch', ['--cluster', cluster, '--wait', '--wrap', 'true']);
    expect(r.exitCode).toBe(1);
    const id = /Submitted batch job (\d+)/.exec(r.stdout)![1]!;
    const shown = await ctl.run('tscontrol', ['--cluster', cluster, '-o', 'show', 'job', id]);
    expect(shown.stdout).toMatch(/JobState=FAILED /);
    expect(shown.stdout).toMatch(/ Restarts=0 /);
    expect(readFileSync(path.join(ctl.stateDir, 'tsctld.log'), 'utf8')).toContain(`job ${id}: job_container/tmpfs: container_p_create: failed`);
  });
});
