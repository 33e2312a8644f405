// tscontrol update, requeue, suspend, resume, show steps and the controller's live node states
// as tsinfo and tscontrol show them — texts and exit statuses observed on Slurm 22.05
// (scontrol update NodeName=nosuch ..., drain without a reason, update JobId=999, ...).
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs; partition small: node[1-2]
const STAMP = /\[root@\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\]/;

describe('tscontrol update and live node states', () => {
  const ctl = testController();
  afterAll(async () => {
    await ctl.run('tscancel', ['--cluster', small, '-u', 'root']).catch(() => {});
    await ctl.stop();
  });
  const scontrol = (...args: string[]) => ctl.run('tscontrol', ['--cluster', small, ...args]);
  const sinfo = (...args: string[]) => ctl.run('tsinfo', ['--cluster', small, ...args]);
  const sbatch = async (...args: string[]) => (await ctl.run('tsbatch', ['--cluster', small, '--parsable', ...args])).stdout.trim();

  it('refuses what scontrol refuses, in its words', async () => {
    expect(await scontrol('update', 'NodeName=node1', 'State=DRAIN')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'You must specify a reason when DOWNING or DRAINING a node. Request denied\n',
    });
    expect(await scontrol('update', 'NodeName=nosuch', 'State=DRAIN', 'Reason=x')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'slurm_update error: Invalid node name specified\n',
    });
    expect((await scontrol('update', 'NodeName=node1', 'Bogus=1')).stderr).toBe('Update of this parameter is not supported: Bogus=1\nRequest aborted\n');
    expect((await scontrol('update', 'NodeName=node1', 'State=BOGUS')).stderr).toBe(
      'Invalid input: State=BOGUS\nRequest aborted\nValid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN\n' +
        "Not all states are valid given a node's prior state\n",
    );
    expect((await scontrol('update', 'Bogus=1')).stderr).toBe(
      'No valid entity in update command\nInput line must include "NodeName", "PartitionName", "Reservation", "JobId", or "SlurmctldDebug"\n',
    );
    expect(await scontrol('update', 'NodeName=node1', 'State=RESUME')).toMatchObject({ exitCode: 1, stderr: 'slurm_update error: Invalid node state specified\n' });
    expect(await scontrol('update', 'JobId=999', 'TimeLimit=5')).toEqual({ exitCode: 1, stdout: '', stderr: 'Invalid job id specified for job 999\n' });
    expect(await scontrol('update', 'JobId=999', 'TimeLimit=abc')).toMatchObject({ exitCode: 1, stderr: 'tscontrol: error: Invalid TimeLimit value\n' });
    expect(await scontrol('update', 'JobId=999', 'Bogus=1')).toMatchObject({ exitCode: 1, stderr: 'Update of this parameter is not supported: Bogus=1\nRequest aborted\n' });
    expect(await scontrol('requeue', '999')).toMatchObject({ exitCode: 1, stderr: 'Invalid job id specified for job 999\n' });
    expect(await scontrol('suspend', '999')).toMatchObject({ exitCode: 1, stderr: 'Unexpected message received for job 999\n' });
    expect(await scontrol('resume', '999')).toMatchObject({ exitCode: 1, stderr: 'Unexpected message received for job 999\n' });
  });

  it('drains and downs nodes: sinfo, sinfo -R and show node say so, with who and when', async () => {
    expect(await scontrol('update', 'NodeName=node3', 'State=DRAIN', 'Reason=maint work')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect((await scontrol('update', 'NodeName=node4', 'State=DOWN', 'Reason=broken')).exitCode).toBe(0);
    expect((await sinfo()).stdout).toBe(
      'PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n' +
        // sinfo's default sort, -t: the higher state value first (IDLE+DRAIN, IDLE, DOWN).
        'debug*       up   infinite      1  drain node3\n' +
        'debug*       up   infinite      2   idle node[1-2]\n' +
        'debug*       up   infinite      1   down node4\n' +
        'small        up      10:00      2   idle node[1-2]\n',
    );
    // node3's reason is the newer one: sinfo -R sorts it first.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await scontrol('update', 'NodeName=node3', 'Reason=maint work');
    const reasons = (await sinfo('-R')).stdout.split('\n');
    expect(reasons[0]).toBe('REASON               USER      TIMESTAMP           NODELIST');
    expect(reasons.slice(1).map((l) => l.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/, 'TIME'))).toEqual([
      'maint work           root      TIME node3',
      'broken               root      TIME node4',
      '',
    ]);
    const node3 = (await scontrol('show', 'node', 'node3')).stdout;
    expect(node3).toContain('   State=IDLE+DRAIN ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n');
    expect(node3).toMatch(new RegExp(`\\n   Reason=maint work ${STAMP.source}\\n\\n$`));
    expect((await scontrol('-o', 'show', 'node', 'node4')).stdout).toMatch(/ State=DOWN .* Reason=broken \[root@/);
    // DOWN on a drained node keeps the drain (observed: State=DOWN+DRAIN, sinfo "drain").
    await scontrol('update', 'NodeName=node3', 'State=DOWN', 'Reason=dead');
    expect((await scontrol('show', 'node', 'node3')).stdout).toContain('State=DOWN+DRAIN ');
    expect((await sinfo('-N', '-h', '-n', 'node3', '-o', '%N %t %T %E')).stdout).toBe('node3 drain drained dead\n');
    expect((await scontrol('update', 'NodeName=node[3-4]', 'State=RESUME')).exitCode).toBe(0);
    expect((await sinfo('-h', '-p', 'debug')).stdout).toBe('debug*       up   infinite      4   idle node[1-4]\n');
    expect((await sinfo('-R', '-h')).stdout).toBe('');
  });

  it('shows running jobs: ALLOCATED, MIXED and a draining node, and no job goes to a drained one', async () => {
    const mixed = await sbatch('-w', 'node1', '-n2', '--wrap', 'sleep 60');
    const whole = await sbatch('-w', 'node2', '--exclusive', '--wrap', 'sleep 60');
    await ctl.until(async () => (await ctl.jobField(whole, 'JobState')) === 'RUNNING' && (await ctl.jobField(mixed, 'JobState')) === 'RUNNING');
    await scontrol('update', 'NodeName=node2', 'State=DRAIN', 'Reason=draintest');
    expect((await sinfo()).stdout).toBe(
      'PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n' +
        'debug*       up   infinite      1   drng node2\n' +
        'debug*       up   infinite      1    mix node1\n' +
        'debug*       up   infinite      2   idle node[3-4]\n' +
        'small        up      10:00      1   drng node2\n' +
        'small        up      10:00      1    mix node1\n',
    );
    expect((await sinfo('-h', '-o', '%N %t %T %C %A %F', '-p', 'debug')).stdout).toBe(
      'node2 drng draining 4/0/0/4 1/0 1/0/0/1\nnode1 mix mixed 2/2/0/4 1/0 1/0/0/1\nnode[3-4] idle idle 0/8/0/8 0/2 0/2/0/2\n',
    );
    const node1 = (await scontrol('show', 'node', 'node1')).stdout;
    expect(node1).toMatch(/\n   CPUAlloc=2 CPUEfctv=4 CPUTot=4 CPULoad=\d+\.\d\d\n/);
    expect(node1).toContain('\n   State=MIXED ThreadsPerCore=1 ');
    expect((await scontrol('show', 'node', 'node2')).stdout).toContain('\n   State=ALLOCATED+DRAIN ThreadsPerCore=1 ');
    const waiting = await sbatch('-w', 'node2', '--wrap', 'true');
    await ctl.until(async () => (await ctl.jobField(waiting, 'Reason')) !== 'None');
    expect(await ctl.jobField(waiting, 'JobState')).toBe('PENDING');
    await ctl.run('tscancel', [mixed, whole, waiting]);
    await ctl.until(async () => (await sinfo('-h', '-n', 'node2', '-o', '%t')).stdout === 'drain\n');
    await scontrol('update', 'NodeName=node2', 'State=RESUME');
  });

  it('updates a pending job, the time limit of a running one, and refuses a running job a partition', async () => {
    const held = await sbatch('--hold', '-t', '20', '--wrap', 'true');
    expect(await scontrol('update', `JobId=${held}`, 'TimeLimit=30', 'Name=renamed', 'Partition=small')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await ctl.jobField(held, 'JobName')).toBe('renamed');
    expect(await ctl.jobField(held, 'TimeLimit')).toBe('00:30:00');
    expect(await ctl.jobField(held, 'Partition')).toBe('small');
    expect((await scontrol('update', `JobId=${held}`, 'Partition=nosuch')).stderr).toBe(`Invalid partition name specified for job ${held}\n`);
    const running = await sbatch('-t', '5', '--wrap', 'sleep 60');
    await ctl.until(async () => (await ctl.jobField(running, 'JobState')) === 'RUNNING');
    expect((await scontrol('update', `JobId=${running}`, 'TimeLimit=+5')).exitCode).toBe(0);
    expect(await ctl.jobField(running, 'TimeLimit')).toBe('00:10:00');
    expect(await scontrol('update', `JobId=${running}`, 'Partition=small')).toMatchObject({
      exitCode: 1,
      stderr: `Job is no longer pending execution for job ${running}\n`,
    });
    await ctl.run('tscancel', [held, running]);
  });

  it('suspends, resumes and requeues a running job; refuses a pending one', async () => {
    const id = await sbatch('--wrap', 'for i in $(seq 600); do echo $i > count; sleep 0.1; done');
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    expect(await scontrol('suspend', id)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await ctl.jobField(id, 'JobState')).toBe('SUSPENDED');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const stopped = ctl.read('count');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(ctl.read('count')).toBe(stopped);
    expect((await scontrol('suspend', id)).exitCode).toBe(0); // quietly, as scontrol
    expect(await scontrol('resume', id)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect((await scontrol('resume', id)).stderr).toBe(`Job is not suspended for job ${id}\n`);
    await ctl.until(() => ctl.read('count') !== stopped);
    expect(await scontrol('requeue', id)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'PENDING');
    expect(await ctl.jobField(id, 'Restarts')).toBe('1');
    expect(await ctl.jobField(id, 'Reason')).toBe('BeginTime');
    expect(ctl.read(`slurm-${id}.out`)).toMatch(new RegExp(`^slurmstepd-node1: error: \\*\\*\\* JOB ${id} ON node1 CANCELLED AT \\S+ DUE TO JOB REQUEUE \\*\\*\\*\\n$`));
    expect((await scontrol('suspend', id)).stderr).toBe(`Job is pending execution for job ${id}\n`);
    expect((await scontrol('requeue', id)).stderr).toBe(`Job is pending execution for job ${id}\n`);
    await ctl.run('tscancel', [id]);
  });

  it('refuses to change a finished job, and queues it again on requeue', async () => {
    const id = (await ctl.run('tsbatch', ['--cluster', small, '--parsable', '--wait', '--wrap', 'echo ran'])).stdout.trim();
    expect((await scontrol('update', `JobId=${id}`, 'TimeLimit=5')).stderr).toBe(`Job has already finished for job ${id}\n`);
    expect((await scontrol('suspend', id)).stderr).toBe(`Job/step already completing or completed for job ${id}\n`);
    expect((await scontrol('resume', id)).stderr).toBe(`Job/step already completing or completed for job ${id}\n`);
    expect(await scontrol('requeue', id)).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await ctl.jobField(id, 'Restarts')).toBe('1');
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'COMPLETED');
    expect(ctl.read(`slurm-${id}.out`)).toBe('ran\nran\n');
  });

  it('keeps node states across a controller restart, and shows them while none runs', async () => {
    await scontrol('update', 'NodeName=node4', 'State=DRAIN', 'Reason=kept');
    await ctl.stop();
    expect((await sinfo('-h', '-n', 'node4', '-o', '%t %E')).stdout).toBe('drain kept\n');
    // Starts a controller again; --wait, so the job is gone before the next case lists steps
    // (its batch step shows in `show steps` while it runs, as Slurm's does).
    await ctl.run('tsbatch', ['--cluster', small, '--wait', '--wrap', 'true']);
    expect((await sinfo('-h', '-n', 'node4', '-o', '%t %E')).stdout).toBe('drain kept\n');
    expect((await scontrol('show', 'node', 'node4')).stdout).toMatch(new RegExp(`\\n   Reason=kept ${STAMP.source}\\n`));
    await scontrol('update', 'NodeName=node4', 'State=RESUME');
  });

  it('show steps, reconfigure', async () => {
    expect(await scontrol('show', 'steps')).toEqual({ exitCode: 0, stdout: 'No job steps in the system\n', stderr: '' });
    // A job the controller does not know (observed: `scontrol show step 9999`).
    expect(await scontrol('show', 'step', '999')).toEqual({ exitCode: 1, stdout: '', stderr: 'slurm_get_job_steps error: Invalid job id specified\n' });
    expect(await scontrol('reconfigure')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });
});
