// tscontrol update PartitionName= State= MaxTime= Nodes= OverSubscribe= and update JobId= Comment= Dependency=,
// with the texts and statuses scontrol 22.05 gave for the same words (/work/ref/scontrol.txt),
// and partition changes that outlive the controller.
import { afterAll, describe, expect, it } from 'vitest';
import { fixture } from '../helpers/run-bin.js';
import { testController } from '../helpers/controller.js';

const small = fixture('clusters', 'small.yaml'); // node[1-4], 4 CPUs; partition small: node[1-2], MaxTime 10

describe('tscontrol update PartitionName=', () => {
  const ctl = testController({ TSLURM_CONF: small });
  afterAll(async () => {
    await ctl.run('tscancel', ['-u', 'root']).catch(() => {});
    await ctl.stop();
  });
  const scontrol = (...args: string[]) => ctl.run('tscontrol', args);
  const sbatch = async (...args: string[]) => (await ctl.run('tsbatch', ['--parsable', ...args])).stdout.trim();
  const partition = async (name: string) => (await scontrol('-o', 'show', 'partition', name)).stdout;

  it("refuses what scontrol refuses, in scontrol's words", async () => {
    expect(await scontrol('update', 'PartitionName=nosuch', 'MaxTime=5')).toEqual({ exitCode: 1, stdout: '', stderr: 'slurm_update error: Invalid partition name specified\n' });
    expect(await scontrol('update', 'PartitionName=small', 'State=BOGUS')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tscontrol: error: Invalid input: State=BOGUS\ntscontrol: error: Acceptable State values are UP, DOWN, DRAIN and INACTIVE\nslurm_update error: No error\n',
    });
    expect(await scontrol('update', 'PartitionName=small', 'MaxTime=bogus')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tscontrol: error: Invalid input MaxTime=bogus\nslurm_update error: No error\n',
    });
    expect(await scontrol('update', 'PartitionName=small', 'Bogus=1')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: 'tscontrol: error: Update of this parameter is not supported: Bogus=1\n\ntscontrol: error: Request aborted\nslurm_update error: No error\n',
    });
    expect(await scontrol('update', 'PartitionName=small')).toEqual({ exitCode: 1, stdout: '', stderr: 'tscontrol: error: No changes specified\n' });
    expect(await scontrol('update', 'PartitionName=small', 'Nodes=nosuch')).toEqual({ exitCode: 1, stdout: '', stderr: 'slurm_update error: Invalid node name specified\n' });
    expect(await partition('small')).toContain(' MaxTime=00:10:00 ');
  });

  it('a DOWN partition holds its jobs (PartitionDown) until it is UP again; MaxTime shows at once', async () => {
    expect(await scontrol('update', 'PartitionName=small', 'MaxTime=30', 'State=DOWN')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await partition('small')).toMatch(/ MaxTime=00:30:00 .* State=DOWN TotalCPUs=8 TotalNodes=2 /);
    expect((await ctl.run('tsinfo', ['-h', '-p', 'small', '-o', '%P %a %l'])).stdout).toBe('small down 30:00\n');
    // 20 minutes: over the old limit, within the new one.
    const id = await sbatch('-p', 'small', '-t', '20', '--wrap', 'sleep 30');
    await ctl.until(async () => (await ctl.jobField(id, 'Reason')) === 'PartitionDown');
    expect(await ctl.jobField(id, 'JobState')).toBe('PENDING');
    expect(await scontrol('update', 'PartitionName=small', 'State=up')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    await ctl.until(async () => (await ctl.jobField(id, 'JobState')) === 'RUNNING');
    await ctl.run('tscancel', [id]);
  });

  it('Nodes= moves the partition; INACTIVE and UNLIMITED as scontrol prints them; Nodes= empties it', async () => {
    expect((await scontrol('update', 'PartitionName=small', 'Nodes=node[3-4]', 'State=INACTIVE', 'MaxTime=UNLIMITED')).exitCode).toBe(0);
    expect(await partition('small')).toMatch(/ MaxTime=UNLIMITED .* Nodes=node\[3-4\] .* State=INACTIVE TotalCPUs=8 TotalNodes=2 /);
    expect((await scontrol('show', 'node', 'node3')).stdout).toContain('\n   Partitions=debug,small \n');
    expect((await scontrol('show', 'node', 'node1')).stdout).toContain('\n   Partitions=debug \n');
    expect((await scontrol('update', 'PartitionName=small', 'Nodes=')).exitCode).toBe(0);
    // Observed: an empty partition is "Nodes=(null) ... TotalCPUs=0 TotalNodes=0 ... TRES=(null)"... with no TRES line here.
    expect(await partition('small')).toMatch(/ Nodes=\(null\) .* State=INACTIVE TotalCPUs=0 TotalNodes=0 /);
    expect((await scontrol('update', 'PartitionName=small', 'Nodes=node3', 'State=DRAIN', 'MaxTime=1-00:00:00')).exitCode).toBe(0);
    expect(await partition('small')).toMatch(/ MaxTime=1-00:00:00 .* Nodes=node3 .* State=DRAIN TotalCPUs=4 TotalNodes=1 /);
  });

  it('keeps the changes across a controller restart, and shows them while none runs', async () => {
    expect((await scontrol('update', 'PartitionName=small', 'OverSubscribe=YES:2')).exitCode).toBe(0);
    await ctl.stop();
    expect(await partition('small')).toContain(' OverSubscribe=YES:2 ');
    expect(await partition('small')).toMatch(/ MaxTime=1-00:00:00 .* Nodes=node3 .* State=DRAIN TotalCPUs=4 TotalNodes=1 /);
    expect((await scontrol('ping')).exitCode).toBe(0);
    expect(await partition('small')).toMatch(/ MaxTime=1-00:00:00 .* Nodes=node3 .* State=DRAIN TotalCPUs=4 TotalNodes=1 /);
    expect(await partition('small')).toContain(' OverSubscribe=YES:2 ');
    // A job asking for node1 in small is refused now: node1 is no longer in it.
    expect((await ctl.run('tsbatch', ['-p', 'small', '-w', 'node1', '--wrap', 'true'])).stderr).toBe(
      'tsbatch: error: Batch job submission failed: Requested nodes not in this partition\n',
    );
  });
});

describe('tscontrol update JobId= Comment= Dependency=', () => {
  const ctl = testController({ TSLURM_CONF: small });
  afterAll(async () => {
    await ctl.run('tscancel', ['-u', 'root']).catch(() => {});
    await ctl.stop();
  });
  const scontrol = (...args: string[]) => ctl.run('tscontrol', args);
  const sbatch = async (...args: string[]) => (await ctl.run('tsbatch', ['--parsable', ...args])).stdout.trim();

  it('sets and clears a comment and a dependency of a pending job; refuses them as slurmctld does', async () => {
    const first = await sbatch('--wrap', 'sleep 60');
    const held = await sbatch('--hold', '--wrap', 'true');
    expect(await scontrol('update', `JobId=${held}`, 'TimeLimit=5', 'Name=renamed', 'Comment=a comment', `Dependency=afterok:${first}`)).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: '',
    });
    const shown = (await scontrol('show', 'job', held)).stdout;
    expect(shown).toContain(`JobName=renamed\n`);
    expect(shown).toContain(`   JobState=PENDING Reason=JobHeldUser Dependency=afterok:${first}(unfulfilled)\n`);
    expect(shown).toContain('   RunTime=00:00:00 TimeLimit=00:05:00 TimeMin=N/A\n');
    expect(shown).toContain('   Comment=a comment \n');
    expect(await scontrol('update', `JobId=${held}`, 'Dependency=', 'Comment=')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    const cleared = (await scontrol('-o', 'show', 'job', held)).stdout;
    expect(cleared).toContain(' Dependency=(null) ');
    expect(cleared).not.toContain('Comment=');
    expect(await scontrol('update', `JobId=${held}`, 'Dependency=bogus')).toEqual({ exitCode: 1, stdout: '', stderr: `Job dependency problem for job ${held}\n` });
    await ctl.until(async () => (await ctl.jobField(first, 'JobState')) === 'RUNNING');
    expect(await scontrol('update', `JobId=${first}`, 'Dependency=afterok:1')).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `Job is no longer pending execution for job ${first}\n`,
    });
    // A running job's comment may change (slurmctld allows it).
    expect(await scontrol('update', `JobId=${first}`, 'Comment=changed')).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(await ctl.jobField(first, 'Comment')).toBe('changed');
  });
});
