// Preemption by partition PriorityTier (preempt/partition_prio) in each PreemptMode, through the
// real controller and select/cons_tres: a job of "high" (tier 2) takes the nodes of a running
// job of "low" (tier 1); `tscontrol suspend/resume` really stops and continues the job's
// processes; `tscontrol update JobId= NumNodes=` shrinks a running job.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../helpers/run-bin.js';
import { testController, type TestController } from '../helpers/controller.js';

const running: TestController[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((ctl) => ctl.stop()));
});

function setup(mode: string, minuteSeconds = '1') {
  const ctl = testController({ TSLURM_MINUTE_SECONDS: minuteSeconds, TSLURM_KILL_WAIT: '1' });
  running.push(ctl);
  const cluster = fixture('clusters', `preempt-${mode}.yaml`);
  const sbatch = async (args: string[]) => Number((await ctl.run('tsbatch', ['--cluster', cluster, '--parsable', ...args])).stdout.trim());
  const state = (id: number) => ctl.jobField(id, 'JobState');
  return { ctl, cluster, sbatch, state };
}

// The low job counts seconds into its output, so a stopped job is seen to stop counting.
const COUNTER = 'i=0; while true; do i=$((i+1)); echo $i > count; sleep 0.2; done';
/** A job that runs until the test creates `go` in the work directory. */
const GATED = 'while [ ! -e go ]; do sleep 0.1; done';

describe('preemption (preempt/partition_prio)', () => {
  it('CANCEL: the low-tier job ends PREEMPTED with slurmstepd\'s message, and the high-tier job starts', async () => {
    const { ctl, sbatch, state } = setup('cancel');
    const low = await sbatch(['-N2', '--exclusive', '-o', 'low.out', '--wrap', 'echo started; sleep 60']);
    await ctl.until(async () => (await state(low)) === 'RUNNING');
    // RUNNING comes with the launch; the script's first line is what the checks below read.
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'low.out')) && ctl.read('low.out').startsWith('started\n'));
    const high = await sbatch(['-p', 'high', '-N1', '-o', 'high.out', '--wrap', 'echo high ran']);
    await ctl.until(async () => (await state(high)) === 'COMPLETED');
    expect(await state(low)).toBe('PREEMPTED');
    const lines = ctl.read('low.out').trim().split('\n');
    expect(lines[0]).toBe('started');
    expect(lines[1]).toMatch(new RegExp(`^slurmstepd-pn1: error: \\*\\*\\* JOB ${low} ON pn1 CANCELLED AT \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d DUE TO PREEMPTION \\*\\*\\*$`));
    expect(ctl.read('high.out')).toBe('high ran\n');
    const queue = await ctl.run('tsqueue', ['-t', 'all', '-h', '-o', '%i %T']);
    expect(queue.stdout).toContain(`${low} PREEMPTED`);
  });

  it('REQUEUE: the low-tier job goes back to pending (BeginTime), restarts once the high-tier job is done', async () => {
    // A requeued job waits 121 of the controller's seconds (observed on Slurm 22.05): 11 s here,
    // so a loaded machine still reads Reason=BeginTime before it has passed (3 s was too short).
    const { ctl, sbatch, state } = setup('requeue', '5');
    const low = await sbatch(['-N2', '--exclusive', '-o', 'low.out', '--open-mode=append', '--wrap', 'echo started; sleep 60']);
    await ctl.until(async () => (await state(low)) === 'RUNNING');
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'low.out')) && ctl.read('low.out').startsWith('started\n'));
    // The high-tier job runs until the test lets it go, so a loaded machine cannot race the checks.
    const high = await sbatch(['-p', 'high', '-N1', '-o', 'high.out', '--wrap', GATED]);
    await ctl.until(async () => (await state(high)) === 'RUNNING');
    expect(await state(low)).toBe('PENDING');
    expect(await ctl.jobField(low, 'Restarts')).toBe('1');
    expect(await ctl.jobField(low, 'Reason')).toBe('BeginTime');
    writeFileSync(path.join(ctl.workDir, 'go'), '');
    await ctl.until(async () => (await state(high)) === 'COMPLETED');
    await ctl.until(async () => (await state(low)) === 'RUNNING', 40_000);
    // RUNNING comes before the script's first line: wait for it.
    await ctl.until(() => (ctl.read('low.out').match(/^started$/gm) ?? []).length === 2);
    expect(ctl.read('low.out')).toMatch(/^started\nslurmstepd-pn1: error: \*\*\* JOB \d+ ON pn1 CANCELLED AT \S+ DUE TO PREEMPTION \*\*\*\nstarted\n$/);
    await ctl.run('tscancel', [String(low)]);
  });

  it('SUSPEND: the low-tier job is suspended (S, processes stopped) while the high-tier job runs, then resumes', async () => {
    const { ctl, sbatch, state } = setup('suspend');
    const low = await sbatch(['-N2', '--exclusive', '-o', 'low.out', '--wrap', COUNTER]);
    await ctl.until(async () => (await state(low)) === 'RUNNING' && existsSync(path.join(ctl.workDir, 'count')));
    const high = await sbatch(['-p', 'high', '-N1', '-o', 'high.out', '--wrap', GATED]);
    await ctl.until(async () => (await state(high)) === 'RUNNING');
    expect(await state(low)).toBe('SUSPENDED');
    const queue = await ctl.run('tsqueue', ['-h', '-o', '%i %t']);
    expect(queue.stdout).toContain(`${low} S`);
    // Stopped: the counter does not move while suspended.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const frozen = ctl.read('count');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(ctl.read('count')).toBe(frozen);
    writeFileSync(path.join(ctl.workDir, 'go'), '');
    await ctl.until(async () => (await state(high)) === 'COMPLETED');
    await ctl.until(async () => (await state(low)) === 'RUNNING');
    await ctl.until(() => ctl.read('count') !== frozen);
    await ctl.run('tscancel', [String(low)]);
    await ctl.until(async () => (await state(low)) === 'CANCELLED');
  });

  it('preempts only lower tiers: a job of the same tier waits for Resources', async () => {
    const { ctl, sbatch, state } = setup('cancel');
    const first = await sbatch(['-N2', '--exclusive', '--wrap', 'sleep 60']);
    await ctl.until(async () => (await state(first)) === 'RUNNING');
    const second = await sbatch(['-N1', '--wrap', 'true']);
    await ctl.until(async () => (await ctl.jobField(second, 'Reason')) === 'Resources');
    expect(await state(first)).toBe('RUNNING');
    await ctl.run('tscancel', [String(first), String(second)]);
  });

  it('restart keeps a preemption suspension: the suspended job still resumes after its preemptor', async () => {
    const { ctl, sbatch, state } = setup('suspend');
    const low = await sbatch(['-N2', '--exclusive', '--wrap', 'sleep 60']);
    await ctl.until(async () => (await state(low)) === 'RUNNING');
    // Long enough to outlast the restart below on a loaded machine.
    const high = await sbatch(['-p', 'high', '-N1', '--wrap', 'sleep 12']);
    await ctl.until(async () => (await state(high)) === 'RUNNING');
    await ctl.stop();
    // The next submission starts a new controller, which recovers both.
    const held = await sbatch(['--hold', '--wrap', 'true']);
    expect(await state(low)).toBe('SUSPENDED');
    await ctl.until(async () => (await state(high)) === 'COMPLETED');
    await ctl.until(async () => (await state(low)) === 'RUNNING');
    await ctl.run('tscancel', [String(low), String(held)]);
  });
});

describe('tscontrol suspend/resume', () => {
  it('stops and continues the job\'s processes, and frees its resources for others meanwhile', async () => {
    const { ctl, sbatch, state } = setup('cancel');
    const job = await sbatch(['-N2', '--exclusive', '-o', 'job.out', '--wrap', COUNTER]);
    await ctl.until(async () => (await state(job)) === 'RUNNING' && existsSync(path.join(ctl.workDir, 'count')));
    expect(await ctl.run('tscontrol', ['suspend', String(job)])).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await state(job)).toBe('SUSPENDED');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const frozen = ctl.read('count');
    // Its nodes are free while it is suspended.
    const other = await sbatch(['-N2', '--wrap', 'true']);
    await ctl.until(async () => (await state(other)) === 'COMPLETED');
    expect(ctl.read('count')).toBe(frozen);
    expect(await ctl.run('tscontrol', ['resume', String(job)])).toMatchObject({ exitCode: 0, stderr: '' });
    expect(await state(job)).toBe('RUNNING');
    await ctl.until(() => ctl.read('count') !== frozen);
    await ctl.run('tscancel', [String(job)]);
  });

  it('resume is refused while another job holds the resources', async () => {
    const { ctl, sbatch, state } = setup('cancel');
    const job = await sbatch(['-N2', '--exclusive', '--wrap', 'sleep 60']);
    await ctl.until(async () => (await state(job)) === 'RUNNING');
    await ctl.run('tscontrol', ['suspend', String(job)]);
    const other = await sbatch(['-N2', '--exclusive', '--wrap', 'sleep 60']);
    await ctl.until(async () => (await state(other)) === 'RUNNING');
    const resumed = await ctl.run('tscontrol', ['resume', String(job)]);
    expect(resumed.exitCode).toBe(1);
    expect(resumed.stderr).toContain('Requested nodes are busy');
    expect(await state(job)).toBe('SUSPENDED');
    await ctl.run('tscancel', [String(job), String(other)]);
  });
});

describe('tscontrol update JobId= NumNodes= (shrink)', () => {
  it('gives up the last nodes through select, shows the smaller job, and writes the resize scripts inside the job', async () => {
    const { ctl, sbatch, state, cluster } = setup('cancel');
    const tscontrol = `${process.execPath} ${path.resolve('bin', 'tscontrol.js')}`;
    const script = [
      `${tscontrol} --cluster ${cluster} update JobId=$SLURM_JOB_ID NumNodes=1`,
      '. ./slurm_job_${SLURM_JOB_ID}_resize.sh',
      'echo "after: $SLURM_JOB_NODELIST $SLURM_JOB_NUM_NODES $SLURM_NNODES"',
      'sleep 30',
    ].join('\n');
    const job = await sbatch(['-N2', '--exclusive', '-o', 'job.out', '--wrap', script]);
    await ctl.until(() => existsSync(path.join(ctl.workDir, 'job.out')) && ctl.read('job.out').includes('after:'));
    expect(ctl.read('job.out')).toBe(
      [
        'To reset Slurm environment variables, execute',
        `  For bash or sh shells:  . ./slurm_job_${job}_resize.sh`,
        `  For csh shells:         source ./slurm_job_${job}_resize.csh`,
        'after: pn1 1 1',
        '',
      ].join('\n'),
    );
    const sh = readFileSync(path.join(ctl.workDir, `slurm_job_${job}_resize.sh`), 'utf8');
    expect(sh).toContain('export SLURM_JOB_NODELIST="pn1"\n');
    expect(sh).toContain('export SLURM_JOB_CPUS_PER_NODE="2"\n');
    expect(readFileSync(path.join(ctl.workDir, `slurm_job_${job}_resize.csh`), 'utf8')).toContain('setenv SLURM_NNODES 1\n');
    expect(await ctl.jobField(job, 'NodeList')).toBe('pn1');
    expect(await ctl.jobField(job, 'NumNodes')).toBe('1');
    // pn2 is free again: a 1-node exclusive job starts beside it.
    const other = await sbatch(['-N1', '--exclusive', '--wrap', 'hostname']);
    await ctl.until(async () => (await state(other)) === 'COMPLETED');
    expect(await ctl.jobField(other, 'NodeList')).toBe('pn2');
    await ctl.run('tscancel', [String(job)]);
  });

  it('refuses to grow a job or to shrink a pending one', async () => {
    const { ctl, sbatch, state } = setup('cancel');
    const job = await sbatch(['-N1', '--wrap', 'sleep 30']);
    await ctl.until(async () => (await state(job)) === 'RUNNING');
    expect(await ctl.run('tscontrol', ['update', `JobId=${job}`, 'NumNodes=2'])).toMatchObject({
      exitCode: 1,
      stderr: `Node count specification invalid for job ${job}\n`,
    });
    const held = await sbatch(['--hold', '--wrap', 'true']);
    expect(await ctl.run('tscontrol', ['update', `JobId=${held}`, 'NumNodes=1'])).toMatchObject({
      exitCode: 1,
      stderr: `Job is not running for job ${held}\n`,
    });
    await ctl.run('tscancel', [String(job), String(held)]);
  });
});
